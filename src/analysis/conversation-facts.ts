import type { ConversationEvent, EndReason } from '../conversations/conversation.events';
import { isUserTurn, outcomeOf, type Outcome } from '../conversations/conversation.events';

/** What post-call analysis reads of a conversation, folded from its stream. */
export interface ConversationFacts {
  started: boolean;
  agentId: string;
  deploymentId: string;
  environment: string;
  /** the user's first input, as they said it ('' when they said nothing) */
  firstRequest: string;
  /** turns the user took part in (outcome.ts isUserTurn) */
  userTurns: number;
  /** topics the agent's answers cited, each once, in the order first cited */
  topics: string[];
  handedOff: boolean;
  endReason: EndReason | null;
  /** the exchanges in order, for a model to read (the greeting is the agent's alone) */
  transcript: Array<{ user: string; agent: string }>;
  /** analysis was recorded already: nothing to do */
  analysed: boolean;
}

const NO_FACTS: ConversationFacts = {
  started: false,
  agentId: '',
  deploymentId: '',
  environment: '',
  firstRequest: '',
  userTurns: 0,
  topics: [],
  handedOff: false,
  endReason: null,
  transcript: [],
  analysed: false,
};

/** Folds one event of a conversation stream. Pure: a replay of the same events gives the same facts. */
function evolveFacts(f: ConversationFacts, event: ConversationEvent): ConversationFacts {
  switch (event.type) {
    case 'ConversationStarted':
      return {
        ...f,
        started: true,
        agentId: event.data.agentId,
        deploymentId: event.data.deploymentId,
        environment: event.data.environment,
      };
    case 'TurnRecorded': {
      const t = event.data;
      const user = isUserTurn(t);
      const cited = t.citedTopic.trim();
      return {
        ...f,
        userTurns: f.userTurns + (user ? 1 : 0),
        firstRequest: f.firstRequest === '' && user ? t.userInput.trim() || (t.dtmf ?? '') : f.firstRequest,
        topics: cited !== '' && !f.topics.includes(cited) ? [...f.topics, cited] : f.topics,
        transcript: [...f.transcript, { user: user ? t.userInput : '', agent: t.agentResponse }],
      };
    }
    case 'HandoffRequested':
      return { ...f, handedOff: true };
    case 'ConversationEnded':
      return { ...f, endReason: event.data.reason };
    case 'ConversationAnalysed':
      return { ...f, analysed: true };
    default:
      return f;
  }
}

export const foldFacts = (events: Iterable<ConversationEvent>): ConversationFacts => {
  let facts = NO_FACTS;
  for (const event of events) facts = evolveFacts(facts, event);
  return facts;
};

/** The one outcome rule (outcome.ts), applied to an ended conversation's facts. */
export function outcomeOfFacts(f: ConversationFacts): Outcome {
  return outcomeOf({ reason: f.endReason ?? 'user', handedOff: f.handedOff, userTurns: f.userTurns });
}

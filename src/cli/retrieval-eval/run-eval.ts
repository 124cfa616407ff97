import type { ServedContent } from '../../agents/deployment-content';
import type { Topic } from '../../agents/agent.events';
import { AgentRuntime } from '../../runtime/agent-runtime';
import { TopicIndexes } from '../../runtime/topic-indexes';
import type { EvalAgent } from './eval-set';
import { NONE, type Split } from './eval-set';
import type { Outcome } from './eval-metrics';

/** A deployment serving the agent's topics, as DeploymentContent gives it to the runtime. */
function servedContent(agent: EvalAgent): ServedContent {
  const topics: Topic[] = agent.topics.map((t) => ({
    id: t.id,
    name: t.name,
    content: t.content,
    exampleQueries: t.exampleQueries,
    actions: '',
    isActive: true,
  }));
  return {
    agentId: `eval-${agent.agent}`,
    accountId: 'eval',
    deploymentId: `eval-${agent.agent}`,
    environment: 'live',
    version: 1,
    greeting: 'Hello',
    languageCode: 'en-GB',
    behavior: '',
    topics,
  };
}

/**
 * Asks every question of the agents through the embedded runtime (no model), as a conversation's
 * turn would: the topic it cites at its own threshold, plus the best hit and its confidence for the
 * threshold sweep (the same index, the same search).
 */
export async function runEval(agents: readonly EvalAgent[], only?: Split): Promise<Outcome[]> {
  const indexes = new TopicIndexes();
  const runtime = new AgentRuntime(null, indexes);
  const outcomes: Outcome[] = [];
  for (const agent of agents) {
    const content = servedContent(agent);
    const { index } = await indexes.of(content);
    const idByName = new Map(agent.topics.map((t) => [t.name, t.id]));
    for (const question of agent.questions) {
      if (only && question.split !== only) continue;
      const { turn } = await runtime.respond(content, {
        text: question.q,
        state: {},
        asrLangCode: 'en-GB',
        ttsLangCode: 'en-GB',
        metadata: {},
        receivedAt: '2026-01-01T00:00:00.000Z',
        newId: () => 'eval',
      });
      const best = index.search(question.q.trim(), 5)[0];
      outcomes.push({
        agent: agent.agent,
        q: question.q,
        split: question.split,
        label: question.topic,
        cited: turn.citedTopic ? (idByName.get(turn.citedTopic) ?? turn.citedTopic) : NONE,
        top: best?.topicId ?? NONE,
        confidence: best?.confidence ?? 0,
      });
    }
  }
  return outcomes;
}

import { Injectable } from '@nestjs/common';
import { AgentsService } from '../agents/agents.service';
import { MAIN } from '../agents/agent.decider';
import { withExampleQuery } from '../agents/example-queries';
import type { CommandContext } from '../commands/command-context';
import { branchRef, parseBranchId } from '../platform/ids/prefixed-ids';
import type { KeyRecord } from '../platform/auth/key-principal';
import { badRequest } from '../platform/errors/domain-error';
import type { AddExampleQueryDto } from './example-query.dto';
import { TurnWords } from './turn-words';

/** The branch as every answer names it (`BRANCH-<id>`, or `main`). */
const refOf = (raw: string) => branchRef(raw === MAIN ? MAIN : parseBranchId(raw));

/** Which of two fields a body holds: exactly one of them, or a 400 naming both. */
function oneOf<K extends keyof AddExampleQueryDto>(dto: AddExampleQueryDto, a: K, b: K, what: string): K {
  const has = (k: K) => dto[k] !== undefined;
  if (has(a) === has(b)) {
    const message = `${what}: send exactly one of ${a} and ${b}`;
    throw badRequest('VALIDATION_ERROR', message, [{ field: has(a) ? b : a, message }]);
  }
  return has(a) ? a : b;
}

export interface Learned {
  /** true: a new topic was made for the words (201) */
  created: boolean;
  body: { added: boolean; query: string; branchId: string; topic: Awaited<ReturnType<AgentsService['addTopic']>> };
}

/**
 * The learning loop (issue 54): "this should have been topic X". The words of a user's turn (or
 * given words) become an example query of a topic on a branch, through the agent's command path
 * like any topic edit, so they are reviewed, merged, conflicted and tested like any other change.
 */
@Injectable()
export class ExampleQueriesService {
  constructor(
    private readonly agents: AgentsService,
    private readonly turns: TurnWords,
  ) {}

  async add(
    agentId: string,
    branchId: string,
    dto: AddExampleQueryDto,
    key: KeyRecord,
    context: CommandContext,
  ): Promise<Learned> {
    const source = oneOf(dto, 'conversationId', 'query', 'the words');
    const target = oneOf(dto, 'topicId', 'newTopic', 'the topic');
    if (source === 'conversationId' && dto.turnIndex === undefined)
      throw badRequest('VALIDATION_ERROR', 'turnIndex is required with conversationId', [
        { field: 'turnIndex', message: 'turnIndex is required with conversationId' },
      ]);
    if (source === 'query' && dto.turnIndex !== undefined)
      throw badRequest('VALIDATION_ERROR', 'turnIndex goes with conversationId, not with query', [
        { field: 'turnIndex', message: 'turnIndex goes with conversationId, not with query' },
      ]);
    const query =
      source === 'query' ? dto.query!.trim() : await this.turns.read(agentId, dto.conversationId!, dto.turnIndex!, key);
    if (target === 'topicId') {
      const { added, topic } = await this.agents.addExampleQuery(agentId, branchId, dto.topicId!, query, context);
      return { created: false, body: { added, query, branchId: refOf(branchId), topic } };
    }
    const t = dto.newTopic!;
    // the same rule as adding to a topic: words, at most as long as an example query may be
    const queries = withExampleQuery([], query)!;
    const topic = await this.agents.addTopic(
      agentId,
      branchId,
      { name: t.name, content: t.content ?? '', exampleQueries: { queries }, actions: t.actions, isActive: t.isActive },
      context,
    );
    return { created: true, body: { added: true, query, branchId: refOf(branchId), topic } };
  }
}

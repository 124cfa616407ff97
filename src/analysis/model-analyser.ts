import type { AnalysisField } from '../agents/analysis-settings';
import type { AnalysisValue, ConversationAnalysedData } from '../conversations/conversation.events';
import type { ChatMessage, LlmClient } from '../runtime/llm/llm-client';
import { outcomeOfFacts, type ConversationFacts } from './conversation-facts';

/** How much of the transcript a model reads, at most: the start and the end of a long conversation. */
const TRANSCRIPT_CHARS = 24_000;
/** The longest summary and string field kept from a model's answer. */
const SUMMARY_CHARS = 2_000;
const STRING_FIELD_CHARS = 1_000;

/** The `response_format` the model must answer in: the summary, and every custom field typed (or null). */
export function analysisSchema(fields: readonly AnalysisField[]): Record<string, unknown> {
  const property = (f: AnalysisField): Record<string, unknown> =>
    f.type === 'enum'
      ? { type: ['string', 'null'], enum: [...f.values!, null], description: f.description }
      : { type: [f.type, 'null'], description: f.description };
  return {
    type: 'json_schema',
    json_schema: {
      name: 'conversation_analysis',
      strict: true,
      schema: {
        type: 'object',
        additionalProperties: false,
        required: ['summary', 'fields'],
        properties: {
          summary: {
            type: 'string',
            description: 'What the user wanted and how the conversation went, in 1 to 3 sentences',
          },
          fields: {
            type: 'object',
            additionalProperties: false,
            required: fields.map((f) => f.name),
            properties: Object.fromEntries(fields.map((f) => [f.name, property(f)])),
          },
        },
      },
    },
  };
}

/** A value the model gave, kept when it is of the field's type (an enum's: one of its values), else null. */
export function fieldValue(field: AnalysisField, value: unknown): AnalysisValue {
  switch (field.type) {
    case 'string':
      return typeof value === 'string' ? value.slice(0, STRING_FIELD_CHARS) : null;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'enum':
      return typeof value === 'string' && field.values!.includes(value) ? value : null;
  }
}

/** The transcript as the model reads it, within TRANSCRIPT_CHARS: the start and the end when it is longer. */
function transcriptText(facts: ConversationFacts): string {
  const lines = facts.transcript.flatMap((t) => [
    ...(t.user !== '' ? [`User: ${t.user}`] : []),
    ...(t.agent !== '' ? [`Agent: ${t.agent}`] : []),
  ]);
  const text = lines.join('\n');
  if (text.length <= TRANSCRIPT_CHARS) return text;
  const half = TRANSCRIPT_CHARS / 2;
  return `${text.slice(0, half)}\n[…]\n${text.slice(-half)}`;
}

function messages(facts: ConversationFacts, fields: readonly AnalysisField[]): ChatMessage[] {
  const asked = fields.map(
    (f) => `- ${f.name} (${f.type}${f.values ? `: ${f.values.join(' | ')}` : ''}): ${f.description}`,
  );
  return [
    {
      role: 'system',
      content: [
        'You analyse a finished conversation between a user and a virtual agent.',
        'Answer with JSON only, as the schema says: `summary`, what the user wanted and how it went in 1 to 3 sentences;',
        '`fields`, each custom field from the conversation, or null when the conversation does not tell.',
        ...(asked.length ? ['Custom fields:', ...asked] : ['There are no custom fields: `fields` is {}.']),
      ].join('\n'),
    },
    {
      role: 'user',
      content: [
        `Outcome: ${outcomeOfFacts(facts)}.`,
        `Topics cited: ${facts.topics.length ? facts.topics.join(', ') : 'none'}.`,
        'Transcript:',
        transcriptText(facts),
      ].join('\n'),
    },
  ];
}

/** Why a model's analysis was not used: the embedded one is recorded instead. */
export class ModelAnalysisFailed extends Error {}

/**
 * Post-call analysis by a model (contract §24): the OpenAI-compatible endpoint writes the summary
 * and the custom fields under a JSON schema built from the `analysis` setting; what comes back is
 * checked against the fields (a value of the wrong type, an enum value outside its list: null).
 * The outcome and the topics are facts of the log, never the model's to say. Throws
 * ModelAnalysisFailed when the endpoint fails, times out (the client's bound) or answers no
 * usable document.
 */
export async function modelAnalysis(
  client: Pick<LlmClient, 'complete'>,
  facts: ConversationFacts,
  fields: readonly AnalysisField[],
): Promise<ConversationAnalysedData> {
  const answer = await client.complete(messages(facts, fields), [], undefined, {
    responseFormat: analysisSchema(fields),
  });
  if ('error' in answer)
    throw new ModelAnalysisFailed(`${answer.error.status}: ${answer.error.error ?? 'the model failed'}`);
  return analysisOfAnswer(answer.text, facts, fields);
}

/** A model's answer read against the fields (model-analyser.ts `modelAnalysis`); throws ModelAnalysisFailed when it is no usable document. */
export function analysisOfAnswer(
  text: string,
  facts: ConversationFacts,
  fields: readonly AnalysisField[],
): ConversationAnalysedData {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw new ModelAnalysisFailed('the model did not answer JSON');
  }
  if (document === null || typeof document !== 'object' || Array.isArray(document))
    throw new ModelAnalysisFailed('the model did not answer a JSON object');
  const { summary, fields: values } = document as { summary?: unknown; fields?: unknown };
  if (typeof summary !== 'string' || summary.trim() === '')
    throw new ModelAnalysisFailed('the model answered no summary');
  const given = values !== null && typeof values === 'object' && !Array.isArray(values) ? values : {};
  return {
    outcome: outcomeOfFacts(facts),
    topics: facts.topics,
    summary: summary.trim().slice(0, SUMMARY_CHARS),
    fields: Object.fromEntries(
      fields.map((f) => [
        f.name,
        fieldValue(f, Object.hasOwn(given, f.name) ? (given as Record<string, unknown>)[f.name] : null),
      ]),
    ),
    analyser: 'model',
  };
}

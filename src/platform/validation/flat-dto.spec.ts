import { CreateChatDto, RespondChatDto } from '../../chat-api/chat-api.dto';
import { DebugChatTurnDto, StartDebugChatDto } from '../../debug-chat/debug-chat.dto';
import { flatDtoBuilder } from './flat-dto';
import { createValidationPipe } from './validation';

const compiled = createValidationPipe();
const full = createValidationPipe({ compiledDtos: false });

type Outcome = { ok: true; value: unknown; proto: unknown } | { ok: false; error: unknown };

async function outcome(pipe: typeof full, metatype: new () => object, body: unknown): Promise<Outcome> {
  try {
    const value: unknown = await pipe.transform(body, { type: 'body', metatype });
    return { ok: true, value, proto: Object.getPrototypeOf(value) };
  } catch (error) {
    return { ok: false, error };
  }
}

const long = 'x'.repeat(20_001);
const CASES: Array<[new () => object, unknown[]]> = [
  [
    DebugChatTurnDto,
    [
      { clientEnv: 'sandbox', message: 'how do I reset my password' },
      { clientEnv: 'live', message: 'hi', metadata: { a: 1, b: [1, 'two', null, { c: true }] }, asrLangCode: 'en-GB' },
      { clientEnv: 'sandbox', ttsLangCode: 'fr' },
      { clientEnv: 'nowhere', message: 'hi' },
      { clientEnv: 'sandbox', message: long },
      { clientEnv: 'sandbox', message: 42 },
      { clientEnv: 'sandbox', message: null },
      { clientEnv: 'sandbox', metadata: [1, 2] },
      { clientEnv: 'sandbox', metadata: 'text' },
      { clientEnv: 'sandbox', asrLangCode: 'english please' },
      { clientEnv: 'sandbox', extra: 1 },
      { message: 'no env' },
      {},
    ],
  ],
  [StartDebugChatDto, [{ clientEnv: 'pre-release' }, { clientEnv: 1 }, { clientEnv: 'sandbox', other: true }]],
  [
    RespondChatDto,
    [
      { conversation_id: 'c-1', message: 'hello' },
      { conversation_id: 'c-1' },
      { conversation_id: 'x'.repeat(201) },
      { message: 'no id' },
      { conversation_id: ['c-1'] },
    ],
  ],
  [
    CreateChatDto,
    [{ user_id: 'u', message: 'm', metadata: { k: 'v' }, client_env: 'live' }, {}, { metadata: null }, { user_id: 7 }],
  ],
];

describe('the compiled check of flat DTOs', () => {
  it.each(CASES.flatMap(([metatype, bodies]) => bodies.map((body) => [metatype.name, metatype, body] as const)))(
    '%s: answers %j as the full pipe does',
    async (_name, metatype, body) => {
      const fast = await outcome(compiled, metatype, body);
      const slow = await outcome(full, metatype, body);
      expect(fast).toEqual(slow);
      if (fast.ok && slow.ok) {
        expect(fast.proto).toBe(metatype.prototype);
        expect(fast.value).not.toBe(body);
      }
    },
  );

  it('accepts the valid bodies itself, and leaves every refusal to the full pipe', async () => {
    for (const [metatype, bodies] of CASES) {
      const build = flatDtoBuilder(metatype);
      expect(build).not.toBeNull();
      for (const body of bodies) {
        const slow = await outcome(full, metatype, body);
        expect(build!(body as Record<string, unknown>) !== null).toBe(slow.ok);
      }
    }
  });

  it('takes a body with a prototype key, or of a kind JSON does not make, through the full pipe', () => {
    const build = flatDtoBuilder(DebugChatTurnDto)!;
    expect(build(JSON.parse('{"clientEnv":"sandbox","metadata":{"__proto__":{"x":1}}}'))).toBeNull();
    expect(build({ clientEnv: 'sandbox', metadata: { constructor: 1 } })).toBeNull();
    expect(build({ clientEnv: 'sandbox', metadata: { when: new Date() } })).toBeNull();
  });
});

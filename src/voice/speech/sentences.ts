/**
 * Cuts a stream of text chunks (an LLM's tokens) into sentences, so speech synthesis can start on
 * the first sentence while the rest is still being generated.
 */
const END = /[.!?…]+["')\]]*(?=\s)|\n+/g;
/** a sentence that never ends is spoken at a comma once it is this long */
const LONG = 160;

export class SentenceSplitter {
  private pending = '';

  /** the sentences this chunk completes */
  push(chunk: string): string[] {
    this.pending += chunk;
    const out: string[] = [];
    let cut = 0;
    END.lastIndex = 0;
    for (let match = END.exec(this.pending); match; match = END.exec(this.pending)) {
      const end = match.index + match[0].length;
      const sentence = this.pending.slice(cut, end).trim();
      if (sentence) out.push(sentence);
      cut = end;
    }
    this.pending = this.pending.slice(cut);
    if (this.pending.length > LONG) {
      const comma = this.pending.lastIndexOf(', ');
      const at = comma > 20 ? comma + 1 : this.pending.lastIndexOf(' ');
      if (at > 0) {
        out.push(this.pending.slice(0, at).trim());
        this.pending = this.pending.slice(at);
      }
    }
    return out;
  }

  /** the rest, once the stream ended */
  flush(): string[] {
    const rest = this.pending.trim();
    this.pending = '';
    return rest ? [rest] : [];
  }
}

/** Every sentence of an answer, as soon as each is complete. */
export async function* sentencesOf(answer: AsyncIterable<string> | string): AsyncGenerator<string> {
  const splitter = new SentenceSplitter();
  if (typeof answer === 'string') {
    yield* splitter.push(answer);
  } else {
    for await (const chunk of answer) yield* splitter.push(chunk);
  }
  yield* splitter.flush();
}

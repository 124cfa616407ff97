import { Injectable } from '@nestjs/common';

/**
 * What optional parts of the process run as, for /readyz to say (e.g. `voice.vad`: `silero` or
 * `energy`): a context sets its entries when it starts; the operations layer reads them without
 * importing the context.
 */
@Injectable()
export class ComponentStatus {
  private readonly entries = new Map<string, string>();

  set(name: string, value: string): void {
    this.entries.set(name, value);
  }

  /** dotted names nest: `voice.vad` → `{ voice: { vad } }` */
  report(): Record<string, Record<string, string>> {
    const out: Record<string, Record<string, string>> = {};
    for (const [name, value] of [...this.entries].sort(([a], [b]) => a.localeCompare(b))) {
      const [group, ...rest] = name.split('.');
      (out[group] ??= {})[rest.join('.') || group] = value;
    }
    return out;
  }
}

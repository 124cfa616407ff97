/** Who asked, and why: becomes the metadata of every event a command appends. */
export interface CommandContext {
  /** key id, `operator`, or `system:<process>` */
  actor: string;
  correlationId: string;
  /** The event that caused this command (process managers, timers). */
  causationId?: string | null;
  /**
   * Makes the command safe to repeat: the appended events get ids derived from this key, so a
   * repeat is recognised by the store and appends nothing. Process managers and timers pass the
   * id of what triggered them.
   */
  idempotencyKey?: string;
}

/**
 * The server's own events: statistics, settings, stream metadata, projection links. Their types
 * (and the streams that hold them) begin with `$`; no Parley event or stream does.
 */
export function isSystemEvent(event: { streamId: string; type: string }): boolean {
  return event.type.startsWith('$') || event.streamId.startsWith('$');
}

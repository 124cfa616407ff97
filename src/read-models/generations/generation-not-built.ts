/** A follower asked for a generation its leader has not finished creating yet (file or schema). */
export class GenerationNotBuiltError extends Error {}

/** A JSON Schema (2020-12) object as OpenAPI 3.1 embeds it: loose on purpose, it is data. */
export type JsonSchema = { [keyword: string]: unknown };

import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';

/**
 * Checks a real answer against the app's own OpenAPI document (issue 34): the operation of the
 * method and path must exist, document the status (exactly, as `4XX`, or as `default`), and its
 * schema for that status must accept the body. Returns the problems, empty when it matches.
 */
export class OpenApiAnswers {
  private readonly ajv: Ajv2020;
  private readonly templates: Array<{ template: string; pattern: RegExp; literal: number }>;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(private readonly document: OpenApiDoc) {
    // OpenAPI's own keywords (example, discriminator, xml, externalDocs) are not JSON Schema
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
    this.ajv.addSchema(document as object, 'openapi.json');
    this.templates = Object.keys(document.paths)
      .map((template) => ({
        template,
        pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^/}]+\\?\}/g, '[^/]+')}$`),
        literal: template.split('/').filter((s) => s && !s.startsWith('{')).length,
      }))
      // the most literal template first: /deployments/active before /deployments/{deploymentId}
      .sort((a, b) => b.literal - a.literal);
  }

  /** The path template of a concrete path, when the document has one. */
  templateOf(path: string): string | undefined {
    return this.templates.find((t) => t.pattern.test(path))?.template;
  }

  check(method: string, url: string, status: number, contentType: string | null, text: string): string[] {
    const path = new URL(url, 'http://x').pathname;
    const template = this.templateOf(path);
    if (!template) return [`${method} ${path}: no path of the document matches`];
    const verb = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase();
    const operation = this.document.paths[template][verb];
    if (!operation) return [`${method} ${template}: the document has no ${verb.toUpperCase()} here`];
    const key = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => operation.responses[k]);
    if (!key) return [`${method} ${template}: status ${status} is not documented`];
    const response = operation.responses[key] as { content?: Record<string, { schema?: unknown }> };
    const where = `${method} ${template} ${status}`;
    if (!response.content)
      return text.length === 0 ? [] : [`${where}: documented without a body, got ${text.length} bytes`];
    const type = (contentType ?? '').split(';')[0].trim();
    const mediaType = response.content[type] ? type : Object.keys(response.content)[0];
    const media = response.content[mediaType];
    if (!media?.schema) return [];
    const pointer = ['paths', template, verb, 'responses', key, 'content', mediaType, 'schema']
      .map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1'))
      .join('/');
    // NDJSON: the schema is that of one line, and every line must match it
    if (mediaType === 'application/x-ndjson') {
      const lines = text.split('\n').filter((line) => line.length > 0);
      if (lines.length === 0) return [`${where}: documented as NDJSON, the body has no line`];
      return lines.flatMap((line, index) => {
        let value: unknown;
        try {
          value = JSON.parse(line);
        } catch {
          return [`${where}: line ${index + 1} is not JSON`];
        }
        return this.validate(pointer, value).map((e) => `${where}: line ${index + 1}${e}`);
      });
    }
    let body: unknown = text;
    if (/json/.test(mediaType)) {
      try {
        body = text.length > 0 ? JSON.parse(text) : undefined;
      } catch {
        return [`${where}: documented as ${mediaType}, the body is not JSON`];
      }
    }
    return this.validate(pointer, body).map((e) => `${where}:${e}`);
  }

  /** The schema at `pointer` of the document against a value: its first errors, empty when it matches. */
  private validate(pointer: string, value: unknown): string[] {
    const id = `openapi.json#/${pointer}`;
    let validate = this.compiled.get(id);
    if (!validate) {
      validate = this.ajv.compile({ $ref: id });
      this.compiled.set(id, validate);
    }
    if (validate(value)) return [];
    return (validate.errors ?? [])
      .slice(0, 5)
      .map((e) => ` ${e.instancePath || '(body)'} ${e.message} ${e.params ? JSON.stringify(e.params) : ''}`);
  }
}

export interface OpenApiDoc {
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
  [key: string]: unknown;
}

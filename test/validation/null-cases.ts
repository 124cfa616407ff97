/**
 * From an operation's request schema in the OpenAPI document: a body that holds one optional
 * property as `null` and is otherwise valid, for every optional property at every depth (nested
 * objects, and the first item of arrays of objects). The rest of each body holds the required
 * fields only, with values from the first source that has one: the route's seed (real ids), the
 * document's own example, or a value made from the schema.
 */

type Schema = Record<string, unknown>;
type Body = Record<string, unknown>;

export interface NullCase {
  /** the property sent as null, as the pipe names it: `a.b`, `items.0.c` */
  field: string;
  /** the request body with `field` null */
  body: Body;
  /** the same body without `field`: it must be valid, or the case proves nothing */
  valid: Body;
  /** the property's own schema, as the document gives it */
  schema: Schema;
}

export class NullCases {
  constructor(private readonly document: { components?: { schemas?: Record<string, Schema> } }) {}

  /** Every null case of a request schema; `sources` are bodies to take values from, first one first. */
  of(schema: Schema, sources: unknown[]): NullCase[] {
    const cases: NullCase[] = [];
    this.walk(schema, '', sources, (inner) => inner, cases);
    return cases;
  }

  /** Whether the document says the property takes `null` (a type, enum, const or alternative of it). */
  acceptsNull(schema: Schema): boolean {
    const type = schema.type;
    if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
    if (schema.const === null || (Array.isArray(schema.enum) && schema.enum.includes(null))) return true;
    const alternatives = [...((schema.anyOf as Schema[]) ?? []), ...((schema.oneOf as Schema[]) ?? [])];
    if (alternatives.some((s) => this.acceptsNull(this.resolve(s)))) return true;
    return typeof schema.$ref === 'string' && this.acceptsNull(this.deref(schema.$ref));
  }

  private walk(schema: Schema, path: string, sources: unknown[], wrap: (inner: Body) => Body, cases: NullCase[]) {
    const object = this.resolve(schema);
    const properties = (object.properties ?? {}) as Record<string, Schema>;
    const frame = this.build(object, sources);
    for (const [name, property] of Object.entries(properties)) {
      const field = path ? `${path}.${name}` : name;
      const from = sources.map((s) => (isObject(s) ? s[name] : undefined));
      if (!((object.required as string[] | undefined) ?? []).includes(name))
        cases.push({ field, body: wrap({ ...frame, [name]: null }), valid: wrap(frame), schema: property });
      const nested = this.resolve(property);
      if (nested.properties) {
        this.walk(nested, field, from, (inner) => wrap({ ...frame, [name]: inner }), cases);
      } else if (nested.items && this.resolve(nested.items as Schema).properties) {
        const items = from.map((s) => (Array.isArray(s) ? s[0] : undefined));
        this.walk(nested.items as Schema, `${field}.0`, items, (inner) => wrap({ ...frame, [name]: [inner] }), cases);
      }
    }
  }

  /** An object of the schema's required properties. */
  private build(object: Schema, sources: unknown[]): Body {
    const body: Body = {};
    for (const name of (object.required as string[] | undefined) ?? []) {
      const property = ((object.properties ?? {}) as Record<string, Schema>)[name] ?? {};
      body[name] = this.value(
        property,
        sources.map((s) => (isObject(s) ? s[name] : undefined)),
      );
    }
    return body;
  }

  /** A value for a property: nested objects built field by field, anything else from a source or the schema. */
  private value(schema: Schema, sources: unknown[]): unknown {
    const resolved = this.resolve(schema);
    if (resolved.properties) return this.build(resolved, sources);
    if (resolved.items && this.resolve(resolved.items as Schema).properties) {
      const items = sources.map((s) => (Array.isArray(s) ? s[0] : undefined));
      return [this.value(resolved.items as Schema, items)];
    }
    const given = sources.find((s) => s !== undefined && s !== null);
    return given !== undefined ? given : this.sample(resolved);
  }

  /** A value the schema accepts, for the simple schemas DTOs make; a pattern needs a source. */
  private sample(schema: Schema): unknown {
    if ('const' in schema) return schema.const;
    if (Array.isArray(schema.enum)) return schema.enum.find((v) => v !== null);
    const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
    switch (type) {
      case 'string': {
        if (schema.pattern)
          throw new Error(`no value for a string matching ${String(schema.pattern)}: give the route a seed`);
        const length = Math.max(1, Number(schema.minLength ?? 1));
        return 'x'.repeat(Math.min(length, Number(schema.maxLength ?? length)));
      }
      case 'integer':
      case 'number':
        return schema.minimum ?? (schema.maximum !== undefined ? Math.min(1, Number(schema.maximum)) : 1);
      case 'boolean':
        return false;
      case 'array': {
        const items = (schema.items ?? {}) as Schema;
        const count = Number(schema.minItems ?? 0);
        const choices = Array.isArray(items.enum) ? items.enum : undefined;
        return Array.from({ length: count }, (_, i) => (choices ? choices[i] : this.sample(this.resolve(items))));
      }
      case 'object':
        return {};
    }
    throw new Error(`no value for the schema ${JSON.stringify(schema)}: give the route a seed`);
  }

  /** The schema a property holds when it is not null: `$ref` followed, a null alternative dropped. */
  private resolve(schema: Schema): Schema {
    if (typeof schema.$ref === 'string') {
      const { $ref, ...rest } = schema;
      return { ...this.resolve(this.deref($ref)), ...rest, type: this.deref($ref).type ?? rest.type };
    }
    const alternatives = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
    if (alternatives) {
      const concrete = alternatives.find((s) => s.type !== 'null');
      if (concrete) return this.resolve(concrete);
    }
    return schema;
  }

  private deref(ref: string): Schema {
    const name = /^#\/components\/schemas\/(.+)$/.exec(ref)?.[1];
    const schema = name ? this.document.components?.schemas?.[name] : undefined;
    if (!schema) throw new Error(`the document has no ${ref}`);
    return schema;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

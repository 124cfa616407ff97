import type { Type } from '@nestjs/common';

/** The class-transformer metadata behind `@Type(() => Nested)`: its storage has no typed entry point. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const transformerStorage = (require('class-transformer/cjs/storage') as TransformerStorageModule)
  .defaultMetadataStorage;
interface TransformerStorageModule {
  defaultMetadataStorage: {
    findTypeMetadata(target: Type, property: string): { typeFunction: () => Type } | undefined;
  };
}

/** The DTO class a property nests (`@Type(() => Nested)`, for an object or each item of an array), if any. */
export function nestedType(dto: Type, property: string): Type | undefined {
  return transformerStorage.findTypeMetadata(dto, property)?.typeFunction();
}

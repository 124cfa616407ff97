import { Injectable, type OnModuleInit } from '@nestjs/common';
import { CONVERSATION_UPCASTERS } from './conversations/conversation.upcasters';
import { UpcasterRegistry } from './event-store/upcaster-registry';
import type { Upcaster } from './event-store/upcasting';

/**
 * Every context's upcasters, which the event store applies to every read. A context declares its
 * own (`<context>/<name>.upcasters.ts`) and is listed here, the one list the app and the
 * projections CLI both open the store with (docs/recipes.md, "Change an event's schema").
 */
export const ALL_UPCASTERS: readonly Upcaster[] = [...CONVERSATION_UPCASTERS];

/** Registers ALL_UPCASTERS before the app starts reading (reads begin at bootstrap, after every module's init). */
@Injectable()
export class RegisterUpcasters implements OnModuleInit {
  constructor(private readonly registry: UpcasterRegistry) {}

  onModuleInit(): void {
    this.registry.register(ALL_UPCASTERS);
  }
}

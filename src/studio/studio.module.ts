import { Module } from '@nestjs/common';
import { StudioController } from './studio.controller';

/** The Studio web console's files (docs/studio.md); it talks to the public API like any client. */
@Module({ controllers: [StudioController] })
export class StudioModule {}

import { Type } from 'class-transformer';
import {
  ArrayUnique,
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { Optional, OptionalOrNull } from '../../platform/validation/optional';
import { REDACT_KINDS, type RedactKind } from '../../privacy/redact-kinds';
import {
  ENDPOINT_NAME,
  ENDPOINT_NAME_RULE,
  MAX_FALLBACK_TEXT,
  MAX_TOKENS_LIMIT,
  MODEL_PROVIDERS,
  RETRIEVAL_MODES,
  RETRIEVAL_TIMEOUT_LIMITS,
  type ModelProvider,
  type RetrievalMode,
} from '../runtime-settings';
import {
  ANALYSIS_FIELD_NAME,
  ANALYSIS_FIELD_NAME_RULE,
  ANALYSIS_FIELD_TYPES,
  ANALYSIS_LIMITS,
  type AnalysisFieldType,
} from '../analysis-settings';

export class ModelSettingsDto {
  @IsIn(MODEL_PROVIDERS as unknown as string[], { message: `provider must be one of ${MODEL_PROVIDERS.join(', ')}` })
  provider: ModelProvider;
  @Optional() @IsString() @MinLength(1) @MaxLength(200) model?: string;
  @Optional() @IsNumber({ allowNaN: false, allowInfinity: false }) @Min(0) @Max(2) temperature?: number;
  @Optional() @IsInt() @Min(1) @Max(MAX_TOKENS_LIMIT) max_tokens?: number;
  @Optional()
  @IsString()
  @Matches(ENDPOINT_NAME, { message: `endpoint must be ${ENDPOINT_NAME_RULE}` })
  endpoint?: string;
}

/** One model per environment; `null` (or absent) runs the agent's `model` there. */
export class EnvironmentModelsDto {
  @OptionalOrNull() @IsObject() @ValidateNested() @Type(() => ModelSettingsDto) sandbox?: ModelSettingsDto | null;
  @OptionalOrNull() @IsObject() @ValidateNested() @Type(() => ModelSettingsDto) 'pre-release'?: ModelSettingsDto | null;
  @OptionalOrNull() @IsObject() @ValidateNested() @Type(() => ModelSettingsDto) live?: ModelSettingsDto | null;
}

/** How topics are retrieved (docs/retrieval.md); `hybrid` requires `endpoint` (runtime-settings.ts checks them together). */
export class RetrievalSettingsDto {
  @IsIn(RETRIEVAL_MODES as unknown as string[], { message: `mode must be one of ${RETRIEVAL_MODES.join(', ')}` })
  mode: RetrievalMode;
  @Optional()
  @IsString()
  @Matches(ENDPOINT_NAME, { message: `endpoint must be ${ENDPOINT_NAME_RULE}` })
  endpoint?: string;
  @Optional() @IsInt() @Min(RETRIEVAL_TIMEOUT_LIMITS.min) @Max(RETRIEVAL_TIMEOUT_LIMITS.max) timeout_ms?: number;
  @Optional() @IsNumber({ allowNaN: false, allowInfinity: false }) @Min(0) @Max(1) min_similarity?: number;
}

/** One retrieval per environment; `null` (or absent) runs the agent's `retrieval` there. */
export class EnvironmentRetrievalDto {
  @OptionalOrNull()
  @IsObject()
  @ValidateNested()
  @Type(() => RetrievalSettingsDto)
  sandbox?: RetrievalSettingsDto | null;
  @OptionalOrNull()
  @IsObject()
  @ValidateNested()
  @Type(() => RetrievalSettingsDto)
  'pre-release'?: RetrievalSettingsDto | null;
  @OptionalOrNull() @IsObject() @ValidateNested() @Type(() => RetrievalSettingsDto) live?: RetrievalSettingsDto | null;
}

/**
 * Phone calls: `recording` records each call's audio (off by default); `end_of_turn_min_ms` and
 * `end_of_turn_max_ms` bound the end of turn that adapts (docs/voice.md).
 */
export class VoiceSettingsDto {
  @OptionalOrNull() @IsBoolean() recording?: boolean | null;
  @OptionalOrNull() @IsInt() @Min(100) @Max(2000) end_of_turn_min_ms?: number | null;
  @OptionalOrNull() @IsInt() @Min(300) @Max(5000) end_of_turn_max_ms?: number | null;
}

/** Personal data the deployment's conversations never record in clear (docs/privacy.md). */
export class PrivacySettingsDto {
  @OptionalOrNull()
  @IsArray()
  @ArrayUnique({ message: 'redact must not name a kind twice' })
  @IsIn(REDACT_KINDS as unknown as string[], {
    each: true,
    message: `redact must hold only ${REDACT_KINDS.join(', ')}`,
  })
  redact?: RedactKind[] | null;
}

/** One custom field of post-call analysis; `values` for enum fields only (runtime-settings.ts checks them together). */
export class AnalysisFieldDto {
  @IsString() @Matches(ANALYSIS_FIELD_NAME, { message: `name must be ${ANALYSIS_FIELD_NAME_RULE}` }) name: string;
  @IsIn(ANALYSIS_FIELD_TYPES as unknown as string[], {
    message: `type must be one of ${ANALYSIS_FIELD_TYPES.join(', ')}`,
  })
  type: AnalysisFieldType;
  @IsString() @MinLength(1) @MaxLength(ANALYSIS_LIMITS.description) description: string;
  @Optional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(ANALYSIS_LIMITS.values)
  @IsString({ each: true })
  @MinLength(1, { each: true })
  @MaxLength(ANALYSIS_LIMITS.value, { each: true })
  values?: string[];
}

/** Post-call analysis (contract §24): the custom fields filled for each ended conversation. */
export class AnalysisSettingsDto {
  @OptionalOrNull()
  @IsArray()
  @ArrayMaxSize(ANALYSIS_LIMITS.fields)
  @ValidateNested({ each: true })
  @Type(() => AnalysisFieldDto)
  fields?: AnalysisFieldDto[] | null;
}

/** PUT settings: a named field is set, `null` puts back its default, an absent one is left as it is. */
export class RuntimeSettingsDto {
  @OptionalOrNull() @IsNumber({ allowNaN: false, allowInfinity: false }) @Min(0) @Max(1) confidence_threshold?:
    number | null;
  @OptionalOrNull() @IsString() @MinLength(1) @MaxLength(MAX_FALLBACK_TEXT) fallback_text?: string | null;
  @OptionalOrNull() @IsBoolean() small_talk?: boolean | null;
  @OptionalOrNull() @IsObject() @ValidateNested() @Type(() => ModelSettingsDto) model?: ModelSettingsDto | null;
  @OptionalOrNull()
  @IsObject()
  @ValidateNested()
  @Type(() => EnvironmentModelsDto)
  environment_models?: EnvironmentModelsDto | null;
  @OptionalOrNull()
  @IsObject()
  @ValidateNested()
  @Type(() => RetrievalSettingsDto)
  retrieval?: RetrievalSettingsDto | null;
  @OptionalOrNull()
  @IsObject()
  @ValidateNested()
  @Type(() => EnvironmentRetrievalDto)
  environment_retrieval?: EnvironmentRetrievalDto | null;
  @OptionalOrNull() @IsObject() @ValidateNested() @Type(() => VoiceSettingsDto) voice?: VoiceSettingsDto | null;
  @OptionalOrNull() @IsObject() @ValidateNested() @Type(() => PrivacySettingsDto) privacy?: PrivacySettingsDto | null;
  @OptionalOrNull()
  @IsObject()
  @ValidateNested()
  @Type(() => AnalysisSettingsDto)
  analysis?: AnalysisSettingsDto | null;
}

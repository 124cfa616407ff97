import { routeDocs } from '../../openapi/route-docs';
import { RecordingController } from './recording.controller';

export const recordingDocs = routeDocs(RecordingController, 'conversations', {
  recording: {
    summary: "A voice call's recording: WAV, 8 kHz 16-bit PCM, two channels (left the caller, right the agent)",
    description:
      "Made when the agent's `voice.recording` runtime setting was on for the call, kept " +
      '`VOICE_RECORDING_RETENTION_DAYS` after it. Needs the `conversations` permission and the ' +
      "project's transcript access (`show_transcripts`); without transcript access, or when there is " +
      'no recording (never made, deleted, another project), the answer is 404.',
    errors: [404],
    responses: {
      200: { description: 'The recording', contentType: 'audio/wav', schema: { type: 'string', format: 'binary' } },
    },
  },
});

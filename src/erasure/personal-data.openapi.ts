import { routeDocs } from '../openapi/route-docs';
import { PersonalDataController } from './personal-data.controller';

export const personalDataDocs = routeDocs(PersonalDataController, 'conversations', {
  erase: {
    summary: "Erase a conversation's personal data",
    description:
      'Destroys the key its personal fields were sealed under (user inputs, responses, state, metadata, ' +
      'numbers, its recording): from then on they read `[erased]` in every API, export and read model, after ' +
      'a rebuild too, while the log stays whole. `ConversationErased` records who erased it and when. ' +
      'Repeating it changes nothing.',
    errors: [404],
    responses: { 204: { description: 'Erased' } },
  },
});

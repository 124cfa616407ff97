import type { Projection } from '../src/read-models/projection';

/** Every read model of the app. The server runs them; `npm run projections` drives them. */
export const ALL_PROJECTIONS: Projection[] = [];

import type { ListFilters } from '../../src/conversations-api/list-query';

/** A listing's filters as the repositories take them: live, no bounds, no search, unless given. */
export const filters = (f: Partial<ListFilters> = {}): ListFilters => ({
  startTime: null,
  endTime: null,
  clientEnv: 'live',
  channels: [],
  outcomes: [],
  variantId: null,
  variantName: null,
  inProgress: null,
  search: null,
  sample: false,
  ...f,
});

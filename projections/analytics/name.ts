export const ANALYTICS_READ_MODEL = 'analytics';

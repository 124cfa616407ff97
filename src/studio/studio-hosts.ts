import { PLATFORM_REGION } from '../platform/http/hosts';

/**
 * Where Studio's API calls go (contract §1): without PUBLIC_DOMAIN every API answers on the page's
 * own host (null); with it, build and platform APIs each answer on their own host of this region.
 */
export function studioHosts(
  publicDomain: string | null,
  region: string,
  protocol: string,
): { build: string | null; platform: string | null } {
  if (!publicDomain) return { build: null, platform: null };
  return {
    build: `${protocol}://api.${region}.${publicDomain}`,
    platform: `${protocol}://api.${PLATFORM_REGION[region]}.platform.${publicDomain}`,
  };
}

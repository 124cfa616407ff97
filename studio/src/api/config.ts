import type { Hosts } from './http';

/** The server's word on where each API family answers (GET /studio/config.json). */
export async function loadHosts(): Promise<Hosts> {
  try {
    const response = await fetch('/studio/config.json', { headers: { accept: 'application/json' } });
    if (!response.ok) return { build: null, platform: null };
    const config = (await response.json()) as { hosts?: Hosts };
    return config.hosts ?? { build: null, platform: null };
  } catch {
    return { build: null, platform: null };
  }
}

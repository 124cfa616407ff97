import { createContext, useContext } from 'react';
import type { Session } from '../session';
import type { ParleyApi } from './client';

export interface StudioContext {
  api: ParleyApi;
  session: Session;
  signIn: (session: Session) => void;
  signOut: () => void;
}

export const Studio = createContext<StudioContext | null>(null);

export function useStudio(): StudioContext {
  const value = useContext(Studio);
  if (!value) throw new Error('useStudio outside a signed-in Studio');
  return value;
}

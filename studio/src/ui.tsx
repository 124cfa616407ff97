import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { ApiError } from './api/http';
import { BASE, navigate } from './router';

/** What an error says to a person: the envelope's code and message when the API refused. */
function describeError(error: unknown): string {
  if (error instanceof ApiError) return `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p className="error" role="alert">
      {describeError(error)}
    </p>
  );
}

/** Loads on mount and whenever `deps` change; `reload` fetches again. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]) {
  const [state, setState] = useState<{ data: T | null; error: unknown; loading: boolean }>({
    data: null,
    error: null,
    loading: true,
  });
  // the caller names what the load depends on, as with useEffect
  const run = useCallback(load, deps);
  // only the latest load's answer is shown: an earlier one that answers late is dropped
  const latest = useRef(0);
  const reload = useCallback(() => {
    const mine = ++latest.current;
    setState((s) => ({ ...s, loading: true }));
    run().then(
      (data) => mine === latest.current && setState({ data, error: null, loading: false }),
      (error: unknown) => mine === latest.current && setState({ data: null, error, loading: false }),
    );
  }, [run]);
  useEffect(reload, [reload]);
  return { ...state, reload };
}

/** Runs an action, remembering its error and whether it is under way (to disable its button). */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = useCallback(async <T,>(action: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true);
    setError(null);
    try {
      return await action();
    } catch (e) {
      setError(e);
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, setError, run };
}

/** An in-app link: a real anchor (middle-click, keyboard) that navigates without a reload. */
export function Link({
  to,
  children,
  className,
  current,
}: {
  to: string;
  children: ReactNode;
  className?: string;
  current?: boolean;
}) {
  return (
    <a
      href={`${BASE}${to}`}
      className={className}
      aria-current={current ? 'page' : undefined}
      onClick={(event) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        navigate(to);
      }}
    >
      {children}
    </a>
  );
}

export function Json({ value, label }: { value: unknown; label?: string }) {
  return (
    <pre className="json" aria-label={label} tabIndex={0}>
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}

/**
 * A name as shown: bidirectional controls (U+202A–U+202E, U+2066–U+2069) are dropped, so a name
 * cannot reverse or reorder the text around it (a title, a breadcrumb).
 */
export const plainName = (name: string) => name.replace(/[\u202A-\u202E\u2066-\u2069\u200E\u200F]/g, '');

/** A name from the user, isolated from the text around it and without bidirectional controls. */
export function Name({ children }: { children: string }) {
  return <bdi>{plainName(children)}</bdi>;
}

/** A key's expiry, the same whichever way the key was made: the UTC date and time, to the minute. */
export const expiryTime = (iso: string | null | undefined) =>
  iso ? `${new Date(iso).toISOString().slice(0, 16).replace('T', ' ')} UTC` : 'never';

export const shortTime = (iso: string) => (iso ? new Date(iso).toLocaleString() : '');

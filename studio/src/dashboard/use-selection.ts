import { useCallback, useState } from 'react';
import { queryOf, selectionFromQuery, type Selection } from './range';

/**
 * The range, environment and channels of the page, from its query string; a change is written
 * back in place (no new history entry per tick of a checkbox), so a reload or a shared link
 * shows the same view.
 */
export function useSelection(): [Selection, (next: Selection) => void] {
  const [selection, setSelection] = useState(() =>
    selectionFromQuery(new URLSearchParams(window.location.search), Date.now()),
  );
  const change = useCallback((next: Selection) => {
    setSelection(next);
    window.history.replaceState(window.history.state, '', `${window.location.pathname}?${queryOf(next)}`);
  }, []);
  return [selection, change];
}

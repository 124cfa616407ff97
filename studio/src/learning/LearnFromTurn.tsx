import { useState } from 'react';
import { ShouldHaveBeen, type WordsSource } from './ShouldHaveBeen';

/** A user turn's "Should have been…" action: opens the picker under the turn. */
export function LearnFromTurn(props: { agentId: string; source: WordsSource; words: string }) {
  const [open, setOpen] = useState(false);
  return (
    <div className="learn-from-turn">
      <button type="button" className="link" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        Should have been…
      </button>
      {open && <ShouldHaveBeen {...props} onClose={() => setOpen(false)} />}
    </div>
  );
}

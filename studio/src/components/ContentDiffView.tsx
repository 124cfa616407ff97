import { useId, type ReactNode } from 'react';
import type { ContentDiff } from '../diff';

/**
 * What changed in behavior and topics (diff.ts), item by item, removed lines before added ones:
 * two deployments compared, or what a branch changes on main.
 */
export function ContentDiffView({ title, diff, empty }: { title: ReactNode; diff: ContentDiff; empty: string }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="diff">
      <h2 id={id}>{title}</h2>
      {!diff.behavior && diff.topics.length === 0 && <p>{empty}</p>}
      {diff.behavior && (
        <div className="diff-item">
          <h3>Behavior</h3>
          <pre className="removed">- {diff.behavior.before}</pre>
          <pre className="added">+ {diff.behavior.after}</pre>
        </div>
      )}
      {diff.topics.map((c) => (
        <div key={c.name} className="diff-item" data-change={c.kind} data-topic-change={c.name}>
          <h3>
            Topic {c.name}: {c.kind}
            {c.kind === 'changed' && ` (${c.fields.join(', ')})`}
          </h3>
          {c.kind === 'changed' &&
            c.fields.map((f) => (
              <div key={f}>
                <pre className="removed">- {JSON.stringify(c.before[f as keyof typeof c.before])}</pre>
                <pre className="added">+ {JSON.stringify(c.after[f as keyof typeof c.after])}</pre>
              </div>
            ))}
          {c.kind === 'added' && <pre className="added">+ {c.after.content}</pre>}
          {c.kind === 'removed' && <pre className="removed">- {c.before.content}</pre>}
        </div>
      ))}
    </section>
  );
}

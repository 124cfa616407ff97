import { useState } from 'react';
import type { Unanswered as Input } from '../api/types';
import { ListTable } from '../components/ListTable';
import { Link, shortTime } from '../ui';
import { ShouldHaveBeen } from '../learning/ShouldHaveBeen';
import { CreateTopic } from './CreateTopic';
import { formatCount } from './figures';

/**
 * What users asked that no topic answered, grouped, most frequent first: each links to the
 * conversation it was last asked in and offers to start a topic from it, or to add it to a topic
 * as an example query (the learning loop's picker, with the normalised text as the words).
 * `transcripts` is the project's data access (null when this key cannot read it): hidden
 * transcripts, empty list.
 */
export function Unanswered(props: { agentId: string; inputs: Input[]; transcripts: boolean | null; canEdit: boolean }) {
  const { agentId, inputs, transcripts, canEdit } = props;
  // one panel at a time, under the list: a new topic from the input, or the input added to a topic
  const [chosen, setChosen] = useState<{ text: string; action: 'create' | 'add' } | null>(null);
  const open = (text: string, action: 'create' | 'add') => setChosen({ text, action });
  return (
    <section aria-labelledby="unanswered-title" className="unanswered">
      <h2 id="unanswered-title">Unanswered inputs</h2>
      {transcripts === false ? (
        <p className="callout" data-testid="transcripts-hidden">
          None listed: transcripts are hidden for this project.{' '}
          <Link to={`/keys?agent=${encodeURIComponent(agentId)}`}>Show them on the data access page</Link> to see what
          users asked that no topic answered.
        </p>
      ) : (
        <ListTable
          caption="Unanswered inputs, most frequent first"
          rows={inputs}
          rowKey={(u) => u.text}
          empty={
            transcripts === null
              ? 'None in this range (they are listed only when the project’s data access shows transcripts).'
              : 'None in this range: every input cited a topic.'
          }
          columns={[
            { header: 'Input', cell: (u) => <span data-field="text">{u.text}</span> },
            {
              header: 'Times asked',
              cell: (u) => <span data-value={u.count}>{formatCount(u.count)}</span>,
            },
            {
              header: 'Last asked',
              cell: (u) => (
                <Link to={`/agents/${agentId}/conversations/${u.conversation_id}`}>
                  <time dateTime={u.last_at}>{shortTime(u.last_at)}</time>
                </Link>
              ),
            },
            ...(canEdit
              ? [
                  {
                    header: 'Actions',
                    cell: (u: Input) => (
                      <div className="row">
                        <button
                          type="button"
                          className="secondary"
                          aria-label={`Create topic from this: ${u.text}`}
                          onClick={() => open(u.text, 'create')}
                        >
                          Create topic from this
                        </button>
                        <button
                          type="button"
                          className="secondary"
                          aria-label={`Add to a topic: ${u.text}`}
                          onClick={() => open(u.text, 'add')}
                        >
                          Add to a topic…
                        </button>
                      </div>
                    ),
                  },
                ]
              : []),
          ]}
        />
      )}
      {chosen?.action === 'create' && (
        <CreateTopic key={chosen.text} agentId={agentId} text={chosen.text} onCancel={() => setChosen(null)} />
      )}
      {chosen?.action === 'add' && (
        <ShouldHaveBeen
          key={chosen.text}
          agentId={agentId}
          source={{ query: chosen.text }}
          words={chosen.text}
          onClose={() => setChosen(null)}
        />
      )}
    </section>
  );
}

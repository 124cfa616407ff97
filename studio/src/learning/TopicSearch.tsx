import { useState } from 'react';
import type { Topic } from '../api/types';

const SHOWN = 8;

const matches = (topic: Topic, words: string) =>
  [topic.name, topic.content, ...topic.exampleQueries.queries].some((text) => text.toLowerCase().includes(words));

/**
 * Picks one topic of a branch by searching its names, answers and example queries: a radio per
 * topic found (the first few; the chosen one stays listed). Topics are named, since names are what
 * stays the same from main to its branches and what merges match.
 */
export function TopicSearch(props: {
  id: string;
  topics: Topic[];
  chosen: string | null;
  onChoose: (name: string) => void;
}) {
  const { id, topics, chosen } = props;
  const [search, setSearch] = useState('');
  const words = search.trim().toLowerCase();
  const found = words ? topics.filter((t) => matches(t, words)) : topics;
  const shown = found.slice(0, SHOWN);
  const picked = topics.find((t) => t.name === chosen);
  if (picked && !shown.includes(picked)) shown.unshift(picked);
  return (
    <fieldset className="topic-search">
      <legend>Topic</legend>
      <label htmlFor={`${id}-search`} className="sr-only">
        Search topics
      </label>
      <input
        id={`${id}-search`}
        type="search"
        placeholder="Search topics"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        autoComplete="off"
      />
      {topics.length === 0 && <p className="hint">This branch has no topic yet: make a new one from the words.</p>}
      {topics.length > 0 && found.length === 0 && <p className="hint">No topic matches “{search}”.</p>}
      <ul className="choices">
        {shown.map((t) => (
          <li key={t.id}>
            <label>
              <input type="radio" name={id} checked={chosen === t.name} onChange={() => props.onChoose(t.name)} />{' '}
              {t.name}
              {!t.isActive && <span className="hint"> (inactive)</span>}
            </label>
          </li>
        ))}
      </ul>
      {found.length > SHOWN && <p className="hint">{found.length - SHOWN} more: narrow the search.</p>}
    </fieldset>
  );
}

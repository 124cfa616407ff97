import { Link } from '../ui';

/** What an unknown path, an unknown agent or a page the key may not use shows: a way back, not a broken form. */
export function NotFound({ what = 'There is no page at this address.' }: { what?: string }) {
  return (
    <section aria-labelledby="not-found-title" data-testid="not-found">
      <h1 id="not-found-title">Not found</h1>
      <p>{what}</p>
      <p>
        <Link to="/">Back to the start</Link>
      </p>
    </section>
  );
}

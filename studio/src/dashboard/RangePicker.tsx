import { useId } from 'react';
import type { Environment } from '../api/types';
import { CHANNELS, PRESETS, type Granularity, type RangeId, type Selection } from './range';

const ENVIRONMENTS: Environment[] = ['live', 'pre-release', 'sandbox'];

/** The range (a preset or custom UTC dates), the environment and the channels; changes apply at once. */
export function RangePicker(props: { selection: Selection; onChange: (next: Selection) => void; problem?: string }) {
  const { selection } = props;
  const set = (patch: Partial<Selection>) => props.onChange({ ...selection, ...patch });
  // labels name their control by id: a select inside its label would take its option's text into its name
  const id = useId();
  return (
    <form className="filters range-picker" aria-label="Range and filters" onSubmit={(e) => e.preventDefault()}>
      <div className="field">
        <label htmlFor={`${id}-range`}>Range</label>
        <select id={`${id}-range`} value={selection.range} onChange={(e) => set({ range: e.target.value as RangeId })}>
          {PRESETS.map((p) => (
            <option key={p.id} value={p.id}>
              {p.label}
            </option>
          ))}
        </select>
      </div>
      {selection.range === 'custom' && (
        <>
          <label>
            From (UTC)
            <input type="date" value={selection.from} required onChange={(e) => set({ from: e.target.value })} />
          </label>
          <label>
            To (UTC)
            <input type="date" value={selection.to} required onChange={(e) => set({ to: e.target.value })} />
          </label>
          <div className="field">
            <label htmlFor={`${id}-by`}>By</label>
            <select id={`${id}-by`} value={selection.by} onChange={(e) => set({ by: e.target.value as Granularity })}>
              <option value="day">day (up to 92 days)</option>
              <option value="hour">hour (up to 7 days)</option>
            </select>
          </div>
        </>
      )}
      <div className="field">
        <label htmlFor={`${id}-env`}>Environment</label>
        <select id={`${id}-env`} value={selection.env} onChange={(e) => set({ env: e.target.value as Environment })}>
          {ENVIRONMENTS.map((env) => (
            <option key={env}>{env}</option>
          ))}
        </select>
      </div>
      <fieldset>
        <legend>Channels (none ticked: all)</legend>
        {CHANNELS.map((c) => (
          <label key={c}>
            <input
              type="checkbox"
              checked={selection.channels.includes(c)}
              onChange={(e) =>
                set({
                  channels: e.target.checked ? [...selection.channels, c] : selection.channels.filter((x) => x !== c),
                })
              }
            />{' '}
            {c}
          </label>
        ))}
      </fieldset>
      {props.problem && (
        <p className="error" role="alert">
          {props.problem}
        </p>
      )}
    </form>
  );
}

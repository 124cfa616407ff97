import { useId, useMemo, useState, type FormEvent } from 'react';
import { useStudio } from '../api/context';
import type { AgentTool } from '../api/types';
import { parseHeaders, parseParameters } from '../tool-form';
import { FormButtons, FormRow } from '../components/FormRow';
import { ErrorNote, useAction, useLoad } from '../ui';

const EXAMPLE_PARAMETERS = '{\n  "type": "object",\n  "properties": {},\n  "required": []\n}';

/** A branch's tools (contract §20): list, add, edit, delete; header values are never shown back. */
export function ToolsTab({ agentId, branchId, readOnly }: { agentId: string; branchId: string; readOnly: boolean }) {
  const { api } = useStudio();
  const tools = useLoad(() => api.tools(agentId, branchId), [api, agentId, branchId]);
  const [secret, setSecret] = useState<string | null>(null);
  return (
    <section aria-labelledby="tools-title">
      <h3 id="tools-title">Tools</h3>
      <ErrorNote error={tools.error} />
      {secret && (
        <p role="status" className="secret-once">
          The agent&apos;s tool signing secret, shown this once: <code data-testid="tool-secret">{secret}</code>
        </p>
      )}
      {tools.data?.length === 0 && (
        <p className="hint">No tools on this branch: add one below to let the agent call your API.</p>
      )}
      {tools.data?.map((tool) => (
        <ToolEditor
          key={tool.id}
          agentId={agentId}
          branchId={branchId}
          tool={tool}
          readOnly={readOnly}
          onChanged={tools.reload}
        />
      ))}
      {!readOnly && (
        <ToolEditor
          agentId={agentId}
          branchId={branchId}
          readOnly={false}
          onChanged={tools.reload}
          onSecret={setSecret}
        />
      )}
    </section>
  );
}

function ToolEditor(props: {
  agentId: string;
  branchId: string;
  tool?: AgentTool;
  readOnly: boolean;
  onChanged: () => void;
  onSecret?: (secret: string) => void;
}) {
  const { agentId, branchId, tool, readOnly } = props;
  const { api } = useStudio();
  const id = useId();
  const [name, setName] = useState(tool?.name ?? '');
  const [description, setDescription] = useState(tool?.description ?? '');
  const [url, setUrl] = useState(tool?.url ?? 'https://');
  const [parameters, setParameters] = useState(tool ? JSON.stringify(tool.parameters, null, 2) : EXAMPLE_PARAMETERS);
  const [timeout, setTimeoutMs] = useState(String(tool?.timeout_ms ?? 3000));
  // headers are write-only: an existing tool's are only replaced, never filled back in
  const [replaceHeaders, setReplaceHeaders] = useState(!tool);
  const [headers, setHeaders] = useState('');
  const action = useAction();
  const parsedParameters = useMemo(() => parseParameters(parameters), [parameters]);
  const parsedHeaders = useMemo(() => parseHeaders(headers), [headers]);
  const timeoutMs = Number(timeout);
  const timeoutBad = !Number.isInteger(timeoutMs) || timeoutMs < 500 || timeoutMs > 10_000;
  const urlBad = !/^https:\/\/[^\s/]+/i.test(url);
  const invalid = !!parsedParameters.error || (replaceHeaders && !!parsedHeaders.error) || timeoutBad || urlBad;
  const headerNames = Object.keys(tool?.headers ?? {});

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (invalid) return;
    const body = {
      name: name.trim(),
      description,
      url: url.trim(),
      parameters: parsedParameters.value as Record<string, never>,
      timeout_ms: timeoutMs,
      ...(replaceHeaders ? { headers: parsedHeaders.value } : {}),
    };
    const ok = await action.run(async () => {
      if (tool) await api.editTool(agentId, branchId, tool.id, body);
      else {
        const created = await api.addTool(agentId, branchId, body);
        if (created.signing_secret) props.onSecret?.(created.signing_secret);
      }
      return true;
    });
    if (!ok) return;
    if (!tool) {
      setName('');
      setDescription('');
      setUrl('https://');
      setParameters(EXAMPLE_PARAMETERS);
      setTimeoutMs('3000');
    }
    setHeaders('');
    setReplaceHeaders(!tool);
    props.onChanged();
  };
  const remove = async () => {
    if (!tool || !window.confirm(`Delete the tool ${tool.name}?`)) return;
    if (await action.run(() => api.removeTool(agentId, branchId, tool.id).then(() => true))) props.onChanged();
  };

  const form = (
    <form onSubmit={submit} className="topic-form" aria-label={tool ? `Tool ${tool.name}` : 'New tool'}>
      <FormRow id={`${id}-name`} label="Name">
        <input
          id={`${id}-name`}
          value={name}
          onChange={(e) => setName(e.target.value)}
          readOnly={readOnly}
          required
          maxLength={64}
          pattern="[A-Za-z][A-Za-z0-9_\-]*"
        />
      </FormRow>
      <FormRow id={`${id}-description`} label="Description">
        <input
          id={`${id}-description`}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          readOnly={readOnly}
          required
        />
      </FormRow>
      <FormRow id={`${id}-url`} label="URL (https)">
        <input
          id={`${id}-url`}
          type="url"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          readOnly={readOnly}
          aria-invalid={urlBad}
          required
        />
      </FormRow>
      <FormRow id={`${id}-parameters`} label="Parameters (a JSON Schema object)">
        <textarea
          id={`${id}-parameters`}
          className="mono"
          rows={6}
          value={parameters}
          onChange={(e) => setParameters(e.target.value)}
          readOnly={readOnly}
          aria-invalid={!!parsedParameters.error}
          aria-describedby={`${id}-parameters-problem`}
          maxLength={16_384}
        />
      </FormRow>
      <p id={`${id}-parameters-problem`} className="problems" aria-live="polite">
        {parsedParameters.error && (
          <span className="error" data-severity="error">
            {parsedParameters.error}
          </span>
        )}
      </p>
      <FormRow id={`${id}-timeout`} label="Timeout (ms, 500 to 10000)">
        <input
          id={`${id}-timeout`}
          type="number"
          min={500}
          max={10_000}
          value={timeout}
          onChange={(e) => setTimeoutMs(e.target.value)}
          readOnly={readOnly}
          aria-invalid={timeoutBad}
        />
      </FormRow>
      <fieldset>
        <legend>Headers (write-only)</legend>
        {tool && (
          <p className="hint" data-testid="headers-set">
            {headerNames.length ? `set: ${headerNames.join(', ')}` : 'none set'}
          </p>
        )}
        {tool && !readOnly && (
          <label>
            <input type="checkbox" checked={replaceHeaders} onChange={(e) => setReplaceHeaders(e.target.checked)} />{' '}
            Replace the headers
          </label>
        )}
        {replaceHeaders && !readOnly && (
          <>
            <FormRow id={`${id}-headers`} label="Headers (one a line: Name: value)">
              <textarea
                id={`${id}-headers`}
                className="mono"
                rows={2}
                value={headers}
                onChange={(e) => setHeaders(e.target.value)}
                aria-invalid={!!parsedHeaders.error}
                autoComplete="off"
              />
            </FormRow>
            {parsedHeaders.error && <span className="error">{parsedHeaders.error}</span>}
          </>
        )}
      </fieldset>
      {!readOnly && (
        <div className="row">
          <FormButtons noun="tool" editing={!!tool} busy={action.busy} disabled={invalid} onDelete={remove} />
        </div>
      )}
      <ErrorNote error={action.error} />
    </form>
  );

  if (!tool) {
    return (
      <details className="topic new-topic">
        <summary>New tool</summary>
        {form}
      </details>
    );
  }
  return (
    <details className="topic" data-tool={tool.name}>
      <summary>
        <span className="topic-name">{tool.name}</span> <span className="hint">{tool.url}</span>
      </summary>
      {form}
    </details>
  );
}

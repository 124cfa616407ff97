/**
 * The embeddable demo chat: one static page that is a client of the public protocol only
 * (access token → session → WebSocket). `?connector=<connector token>`; the page's own host name
 * is its X-Host. It keeps its session in sessionStorage: a reload resumes it (full replay), and a
 * dropped socket reconnects with the last sequence it saw as `cursor`.
 */
export const CHAT_DEMO_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Parley web chat</title>
<style>
  body { font: 15px/1.4 system-ui, sans-serif; margin: 0; background: #f3f4f6; }
  main { max-width: 34rem; margin: 2rem auto; background: #fff; border-radius: 12px; box-shadow: 0 2px 12px #0002; display: flex; flex-direction: column; height: 80vh; }
  header { padding: .75rem 1rem; border-bottom: 1px solid #e5e7eb; display: flex; justify-content: space-between; }
  #log { flex: 1; overflow-y: auto; padding: 1rem; display: flex; flex-direction: column; gap: .5rem; }
  .msg { max-width: 80%; padding: .5rem .75rem; border-radius: 10px; white-space: pre-wrap; }
  .user { align-self: flex-end; background: #2563eb; color: #fff; }
  .agent, .live { align-self: flex-start; background: #e5e7eb; }
  .live { background: #dcfce7; }
  .system, .info { align-self: center; font-size: 13px; color: #6b7280; }
  .system { color: #b91c1c; }
  #typing { min-height: 1.2em; padding: 0 1rem; font-size: 13px; color: #6b7280; }
  form { display: flex; gap: .5rem; padding: .75rem; border-top: 1px solid #e5e7eb; }
  input { flex: 1; padding: .5rem; border: 1px solid #d1d5db; border-radius: 8px; }
</style>
</head>
<body>
<main>
  <header><strong>Chat</strong><span id="status">connecting</span></header>
  <div id="log" aria-live="polite"></div>
  <div id="typing"></div>
  <form id="form"><input id="text" autocomplete="off" placeholder="Type a message" disabled><button id="send" disabled>Send</button><button id="end" type="button" disabled>End</button></form>
</main>
<script>
(() => {
  const params = new URLSearchParams(location.search);
  const connector = params.get('connector');
  const store = sessionStorage;
  const key = 'parley-demo:' + connector;
  const $ = (id) => document.getElementById(id);
  // statuses: every status shown, in order (a brief one, like reconnecting, is still on record)
  const state = { socket: null, lastSequence: 0, joined: false, ended: false, retries: 0, chunks: 0, bubbles: new Map(), statuses: [] };
  window.parleyDemo = state;

  const status = (text) => { $('status').textContent = text; state.statuses.push(text); };
  const line = (kind, text, attrs = {}) => {
    const div = document.createElement('div');
    div.className = 'msg ' + kind;
    div.dataset.kind = kind;
    for (const [k, v] of Object.entries(attrs)) div.dataset[k] = v;
    div.textContent = text;
    $('log').appendChild(div);
    $('log').scrollTop = $('log').scrollHeight;
    return div;
  };
  const enable = (on) => { for (const id of ['text', 'send', 'end']) $(id).disabled = !on; };

  async function post(path, headers, body) {
    const response = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body || {}) });
    const json = await response.json();
    if (!response.ok) throw new Error(json.error_message || response.statusText);
    return json;
  }

  async function session() {
    const saved = JSON.parse(store.getItem(key) || 'null');
    if (saved) return saved;
    const token = await post('/api/v1/access-token', { 'X-Token': connector, 'X-Host': location.hostname });
    const created = await post('/api/v1/sessions', { Authorization: 'Bearer ' + token.access_token }, { streaming_enabled: true, platform: 'web-demo' });
    const fresh = { sessionId: created.session_id, accessToken: token.access_token };
    store.setItem(key, JSON.stringify(fresh));
    return fresh;
  }

  // 4401: the access token expired; a new one resumes the same session (docs/sockets.md)
  async function renewToken() {
    const saved = JSON.parse(store.getItem(key) || 'null');
    if (!saved) return;
    const token = await post('/api/v1/access-token', { 'X-Token': connector, 'X-Host': location.hostname });
    store.setItem(key, JSON.stringify({ sessionId: saved.sessionId, accessToken: token.access_token }));
  }

  function render(event) {
    if (event.sequence !== null) {
      if (event.sequence <= state.lastSequence) return;
      state.lastSequence = event.sequence;
    }
    const p = event.payload || {};
    switch (event.type) {
      case 'EVENT_TYPE_EVENT_BATCH': p.events.forEach(render); if (!state.joined && !state.ended) send('EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN'); break;
      case 'EVENT_TYPE_SESSION_START': break;
      case 'EVENT_TYPE_SERVICE_AGENT_JOINED': state.joined = true; line('info', p.agent_name + ' joined'); break;
      case 'EVENT_TYPE_SERVICE_AGENT_THINKING': $('typing').textContent = 'thinking…'; break;
      case 'EVENT_TYPE_SERVICE_AGENT_MESSAGE_CHUNK': {
        state.chunks++;
        let bubble = state.bubbles.get(p.message_id);
        if (!bubble) { bubble = line('agent', '', { streaming: 'true' }); state.bubbles.set(p.message_id, bubble); }
        bubble.textContent += p.text;
        break;
      }
      case 'EVENT_TYPE_SERVICE_AGENT_MESSAGE': {
        $('typing').textContent = '';
        const bubble = state.bubbles.get(p.message_id);
        if (bubble) { bubble.textContent = p.text; bubble.dataset.seq = event.sequence; delete bubble.dataset.streaming; }
        else line('agent', p.text, { seq: event.sequence });
        break;
      }
      case 'EVENT_TYPE_USER_MESSAGE': {
        // a model's answer streams before the question is stored: the question goes above it
        const div = line('user', p.text, { seq: event.sequence });
        const streaming = $('log').querySelector('[data-streaming]');
        if (streaming) $('log').insertBefore(div, streaming);
        break;
      }
      case 'EVENT_TYPE_SERVICE_AGENT_TRIGGERED_HANDOFF': line('info', 'Connecting you to a person…'); break;
      case 'EVENT_TYPE_HANDOFF_ACCEPTED': line('info', 'A person accepted the chat'); break;
      case 'EVENT_TYPE_HANDOFF_FAILED': state.joined = false; break;
      case 'EVENT_TYPE_HANDOFF_TIMEOUT': line('info', 'No one is available right now'); state.joined = false; break;
      case 'EVENT_TYPE_LIVE_AGENT_JOINED': line('info', p.agent_name + ' joined'); break;
      case 'EVENT_TYPE_LIVE_AGENT_MESSAGE': $('typing').textContent = ''; line('live', p.text, { seq: event.sequence }); break;
      case 'EVENT_TYPE_LIVE_AGENT_TYPING': $('typing').textContent = p.state ? p.agent_name + ' is typing…' : ''; break;
      case 'EVENT_TYPE_LIVE_AGENT_LEFT': line('info', p.agent_name + ' left'); state.joined = false; break;
      case 'EVENT_TYPE_SYSTEM_MESSAGE': line('system', p.message); break;
      case 'EVENT_TYPE_SESSION_END': state.ended = true; enable(false); status('ended'); line('info', 'Chat ended'); store.removeItem(key); break;
    }
  }

  function send(type, payload) {
    if (state.socket && state.socket.readyState === WebSocket.OPEN) state.socket.send(JSON.stringify({ type, payload: payload || {}, metadata: { custom: { page: 'demo' } } }));
  }

  async function connect() {
    let s;
    try { s = await session(); } catch (error) { status('error: ' + error.message); return; }
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const url = scheme + '//' + location.host + '/ws?session_id=' + encodeURIComponent(s.sessionId) + '&access_token=' + encodeURIComponent(s.accessToken) + '&cursor=' + state.lastSequence;
    const socket = new WebSocket(url);
    state.socket = socket;
    status('connecting');
    socket.onopen = () => { state.retries = 0; status('connected'); enable(true); };
    socket.onmessage = (message) => render(JSON.parse(message.data));
    socket.onclose = async (event) => {
      enable(false);
      if (state.ended) return;
      if (event.code === 4401) await renewToken().catch(() => undefined);
      // a socket that never opened may mean the session is gone: start a new one next time
      if (socket.readyState === WebSocket.CLOSED && state.retries > 3) store.removeItem(key);
      status('reconnecting');
      setTimeout(connect, Math.min(5000, 250 * 2 ** state.retries++));
    };
  }

  $('form').addEventListener('submit', (e) => {
    e.preventDefault();
    const text = $('text').value.trim();
    if (!text) return;
    // the server handles a session's frames in arrival order: a join sent first is done before the message
    if (!state.joined) send('EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN');
    send('EVENT_TYPE_USER_MESSAGE', { text });
    $('text').value = '';
  });
  $('text').addEventListener('input', () => send('EVENT_TYPE_USER_TYPING', { state: $('text').value.length > 0 }));
  $('end').addEventListener('click', () => send('EVENT_TYPE_USER_END_SESSION'));
  setInterval(() => send('EVENT_TYPE_HEARTBEAT'), 20000);
  if (!connector) status('missing ?connector=<connector token>'); else connect();
})();
</script>
</body>
</html>
`;

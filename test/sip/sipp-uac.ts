import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { patient } from '../support/patience';

export interface SippResult {
  code: number | null;
  output: string;
}

/**
 * Runs sipp as the caller (UAC) against Parley's SIP server for exactly one call: a built-in
 * scenario (`-sn uac`) or an XML file of ./sipp, or XML text written to a temporary file.
 * `service` is the called number (sipp's [service], the To user).
 */
export function runCaller(
  scenario: { builtin: string } | { file: string } | { xml: string },
  target: { port: number; service: string; transport?: 'u1' | 't1'; extra?: string[] },
): Promise<SippResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-sipp-uac-'));
  let source: string[];
  if ('builtin' in scenario) source = ['-sn', scenario.builtin];
  else if ('file' in scenario) source = ['-sf', path.join(__dirname, 'sipp', scenario.file)];
  else {
    fs.writeFileSync(path.join(dir, 'scenario.xml'), scenario.xml);
    source = ['-sf', path.join(dir, 'scenario.xml')];
  }
  const child = spawn(
    'sipp',
    [
      `127.0.0.1:${target.port}`,
      ...source,
      '-s',
      target.service,
      '-i',
      '127.0.0.1',
      '-p',
      '0',
      '-mp',
      '0',
      '-t',
      target.transport ?? 'u1',
      '-m',
      '1',
      '-nostdin',
      '-timeout',
      `${patient(20)}s`,
      '-timeout_error',
      '-trace_err',
      ...(target.extra ?? []),
    ],
    { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      const errors = fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('_errors.log'))
        .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'))
        .join('\n');
      fs.rmSync(dir, { recursive: true, force: true });
      resolve({ code, output: `${output.slice(-3000)}\n${errors.slice(-3000)}` });
    }),
  );
}

/** A caller whose INVITE gets one final failure `status` (and nothing else but 100/180), which it ACKs; a 503 must carry Retry-After. */
export function refusedCallXml(status: number): string {
  // a 503 must say when to come back
  const check =
    status === 503
      ? '<action><ereg regexp="[0-9]+" search_in="hdr" header="Retry-After:" check_it="true" assign_to="retry"/></action>'
      : '';
  return `<?xml version="1.0" encoding="ISO-8859-1" ?>
<scenario name="refused ${status}">
  <send retrans="500">
    <![CDATA[
      INVITE sip:[service]@[remote_ip]:[remote_port] SIP/2.0
      Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch]
      From: <sip:+15557654321@[local_ip]:[local_port]>;tag=[pid]SIPpTag00[call_number]
      To: <sip:[service]@[remote_ip]:[remote_port]>
      Call-ID: [call_id]
      CSeq: 1 INVITE
      Contact: <sip:caller@[local_ip]:[local_port]>
      Max-Forwards: 70
      Content-Type: application/sdp
      Content-Length: [len]

      v=0
      o=caller 1 1 IN IP[local_ip_type] [local_ip]
      s=-
      c=IN IP[media_ip_type] [media_ip]
      t=0 0
      m=audio [media_port] RTP/AVP 0
      a=rtpmap:0 PCMU/8000
    ]]>
  </send>
  <recv response="100" optional="true"/>
  <recv response="180" optional="true"/>
  <recv response="${status}">${check}</recv>
  <send>
    <![CDATA[
      ACK sip:[service]@[remote_ip]:[remote_port] SIP/2.0
      [last_Via:]
      From: <sip:+15557654321@[local_ip]:[local_port]>;tag=[pid]SIPpTag00[call_number]
      [last_To:]
      Call-ID: [call_id]
      CSeq: 1 ACK
      Max-Forwards: 70
      Content-Length: 0
    ]]>
  </send>
  ${status === 503 ? '<Reference variables="retry"/>' : ''}
</scenario>
`;
}

import { match } from '../router';
import { Operator } from './Operator';
import { OperatorAccount } from './OperatorAccount';
import { ReadModels } from './ReadModels';

/** The pages of operator mode, by path below /studio. */
export function OperatorRoutes({ path }: { path: string }) {
  let m: Record<string, string> | null;
  if ((m = match('/operator/accounts/:accountId', path))) return <OperatorAccount accountId={m.accountId} />;
  if (match('/operator/read-models', path)) return <ReadModels />;
  return <Operator />;
}

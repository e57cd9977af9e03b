/**
 * @table-edge/engine-client: a typed client for game engines of the table-edge gateway
 * (docs/ENGINES.md, "The engine client"). The message types and schemas are the gateway's own
 * (src/core), re-exported here so an engine imports everything from this package.
 */
export * from './engine-client.js';
export * from './stream-tracker.js';
export {
  RESULT_SCHEMAS_BY_GAME,
  PUBLISHED_TOPICS,
  schemaForTopic,
  validateMessage,
  type AnyGameResultMessage,
  type GameResultMessage,
  type MessageOf,
  type PublishedType,
} from '../../../src/core/table/messages.js';
export { OUTCOME_SCHEMAS, type OutcomeGameId, type OutcomeOf } from '../../../src/core/games/outcomes.js';
export { REQUEST_SCHEMAS, type RequestArgs, type RequestCommand } from '../../../src/core/vocabulary/requests.js';
export { canonicalJson, checkEnvelopeSignature, keyFingerprint } from '../../../src/adapters/security/signing.js';

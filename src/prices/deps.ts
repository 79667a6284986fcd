import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AmaLicensePolicy } from './ama-license.js';
import type { LoadedDataset } from './scope.js';
import type { PriceStore } from './store/prices.js';

/** An `onRequest` check: returns to let the request in, throws the `{message}` answer that refuses it. */
export type RequestCheck = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/** An `onSend` hook: sees every answer and returns its payload unchanged. */
export type SendHook = (request: FastifyRequest, reply: FastifyReply, payload: unknown) => Promise<unknown>;

/**
 * The plan API's record of loaded datasets and its sample label, which the price lookup shares (one
 * `x-openenroll-sample-data` header for both APIs, one cache of what is loaded).
 */
export interface SampleData {
  /** The loaded datasets, re-read at most every few seconds (another process may load real data). */
  datasets(): Promise<readonly LoadedDataset[]>;
  /** Records the dataset kinds the answer to `request` is built from, for `label` to judge. */
  uses(request: FastifyRequest, kinds: readonly string[]): void;
  /** An `onSend` hook labelling answers built from sample data; `text` says what the sample is not. */
  label(text: string): SendHook;
}

/**
 * What the price lookup is built from; the server assembles it. The key check and the sample data are the
 * plan API's (the same keys and limits serve both APIs), passed in so neither service imports the other.
 */
export interface PricesDeps {
  /** The costs and procedures. */
  prices: PriceStore;
  /** The plan-API key check and rate limits: 401/429 `{message}`, the limit headers on every answer. */
  checkKey: RequestCheck;
  samples: SampleData;
  settings: {
    /** Which `amaLicense` header values are accepted (`PPL_AMA_LICENSE`). */
    amaLicense: AmaLicensePolicy;
  };
}

import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type {
  FastifyInstance,
  FastifySchemaCompiler,
  FastifySerializerCompiler,
  RouteOptions,
} from 'fastify';

/**
 * The ajv options the kernel gives fastify, as fastify completes them: a schema with
 * `additionalProperties: false` refuses the keys it does not define (a 400 naming the key), as JSON Schema
 * says, instead of fastify's default of deleting them unseen.
 */
export const AJV_OPTIONS = { customOptions: { removeAdditional: false }, plugins: [] };

type Validate = ((data: unknown) => unknown) & { errors?: unknown };
/** A compiler of fastify's: given a route part's definition (`{ schema, method, url, … }`), its function. */
type Compile = (definition: object) => unknown;

/**
 * Route schemas compiled at a route's first request instead of at start (docs/decisions.md#lazy-schemas):
 * compiling every route's validators (ajv) and serializers (fast-json-stringify) took most of a restart's
 * work after loading the code, for routes a given instance may never be asked. The compilers are fastify's
 * own defaults with the same options, so every validation, error and response body is the one fastify
 * would have made; only the moment of compiling moves.
 */
export function lazySchemaCompilers(): (this: FastifyInstance, route: RouteOptions) => void {
  const validatorPool = AjvCompiler();
  const serializerPool = SerializerSelector();
  return function (route) {
    if (!route.schema) return;
    // The schemas shared with addSchema, as fastify would hand them to its compilers.
    const shared = this.getSchemas() as Parameters<typeof validatorPool>[0];
    // fastify treats a route's own validator compiler as foreign and then leaves a headers schema's names as
    // written instead of lower-casing them as Node does: such routes keep fastify's eager compiler.
    if (route.validatorCompiler === undefined && route.schema.headers === undefined) {
      route.validatorCompiler = lazyValidator(validatorPool(shared, AJV_OPTIONS) as Compile);
    }
    route.serializerCompiler ??= lazySerializer(serializerPool(shared, {}) as Compile);
  };
}

function lazyValidator(compile: Compile): FastifySchemaCompiler<unknown> {
  return (definition) => {
    let compiled: Validate | undefined;
    const validate: Validate = (data) => {
      compiled ??= compile(definition) as Validate;
      const result = compiled(data);
      // fastify reads the errors of a failed validation from the function it was given.
      validate.errors = compiled.errors;
      return result;
    };
    return validate as ReturnType<FastifySchemaCompiler<unknown>>;
  };
}

function lazySerializer(compile: Compile): FastifySerializerCompiler<unknown> {
  return (definition) => {
    let compiled: ((data: unknown) => string) | undefined;
    return (data) => (compiled ??= compile(definition) as (data: unknown) => string)(data);
  };
}

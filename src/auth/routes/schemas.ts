import { Type } from 'typebox';

/** Response shapes of the token-side endpoints, for validation-free serialization and the OpenAPI document. */
export const TokenResponseSchema = Type.Object({
  access_token: Type.String(),
  expires_in: Type.Integer(),
  token_type: Type.Literal('Bearer'),
  scope: Type.String(),
  refresh_token: Type.Optional(Type.String()),
  patient: Type.String(),
  access_grant_expiration: Type.Optional(Type.String()),
  id_token: Type.Optional(Type.String()),
});

export const OAuthErrorSchema = Type.Object({
  error: Type.String(),
  error_description: Type.Optional(Type.String()),
  status_code: Type.Optional(Type.Integer()),
});

export const ServiceErrorSchema = Type.Object({
  status_code: Type.Integer(),
  error: Type.Optional(Type.String()),
  error_description: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  message: Type.Optional(Type.String()),
});

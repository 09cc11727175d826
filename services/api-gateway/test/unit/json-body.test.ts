import assert from 'node:assert/strict';
import { AppError } from '@gateway/problem';
import { bodyProblem, carriesBody, jsonObjectBody } from '../../src/http/json-body.js';
import { unknownParametersProblem } from '../../src/http/query-parameters.js';

/** The [field, code] pairs of the validation problem `run` throws. */
function refusal(run: () => unknown): [string, string][] {
  try {
    run();
  } catch (err) {
    assert.ok(err instanceof AppError, String(err));
    assert.equal(err.code, 'validation-error');
    return err.errors.map((e) => [e.field, e.code]);
  }
  assert.fail('the body was taken');
}

describe('The API body: JSON object rules', () => {
  it('when the text is a JSON object, then it is taken as it is, nested values and all', () => {
    assert.deepEqual(jsonObjectBody('{"amount":"1.000","metadata":{"a":"b"},"items":[{"name":"x"}]}'), { amount: '1.000', metadata: { a: 'b' }, items: [{ name: 'x' }] });
  });

  it('when there is no body, an empty one, malformed JSON, or JSON that is not an object, then the field named is body', () => {
    for (const text of [undefined, '', '{"a":', 'nul', '[1,2]', '"hello"', '3', 'null']) {
      assert.deepEqual(refusal(() => jsonObjectBody(text)), [['body', 'invalid']], String(text));
    }
  });

  it('when a __proto__ key or a NUL character hides at any depth, then the field is named and no prototype changes', () => {
    assert.deepEqual(refusal(() => jsonObjectBody('{"__proto__":{"admin":true}}')), [['__proto__', 'invalid']]);
    assert.deepEqual(refusal(() => jsonObjectBody('{"items":[{"name":"a","__proto__":{}}]}')), [['items[0].__proto__', 'invalid']]);
    assert.deepEqual(refusal(() => jsonObjectBody('{"metadata":{"k":"a\\u0000b"}}')), [['metadata.k', 'invalid']]);
    assert.equal(({} as Record<string, unknown>)['admin'], undefined);
  });

  it('when fastify refuses a body, then too large is payload-too-large and anything else it could not read is not JSON; other errors are not its', () => {
    assert.equal(bodyProblem({ code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 })?.code, 'payload-too-large');
    for (const code of ['FST_ERR_CTP_INVALID_MEDIA_TYPE', 'FST_ERR_CTP_INVALID_CONTENT_LENGTH', 'FST_ERR_CTP_EMPTY_JSON_BODY']) {
      assert.deepEqual(refusal(() => { throw bodyProblem({ code }); }), [['body', 'invalid']], code);
    }
    assert.equal(bodyProblem(new Error('database down')), undefined);
    assert.equal(bodyProblem({ code: 'ECONNRESET' }), undefined);
    // A client gone mid-body: fastify's reader passes on Node's "aborted", marked 400. The client's doing, as express's request.aborted was.
    assert.deepEqual(refusal(() => { throw bodyProblem(Object.assign(new Error('aborted'), { code: 'ECONNRESET', statusCode: 400 })); }), [['body', 'invalid']]);
    assert.equal(bodyProblem(null), undefined);
  });

  it('when the body declares a charset other than UTF-8, then it is not JSON the API takes; UTF-8 (any spelling) and a leading byte order mark are taken', () => {
    for (const type of ['application/json; charset=iso-8859-1', 'application/json;charset="windows-1252"', 'text/plain; charset=utf-16']) {
      assert.deepEqual(refusal(() => jsonObjectBody('{"a":"b"}', type)), [['body', 'invalid']], type);
    }
    for (const type of [undefined, '', 'application/json', 'application/json; charset=UTF-8', 'application/json; charset="utf-8"', 'text/plain;charset=utf8']) {
      assert.deepEqual(jsonObjectBody('\ufeff{"a":"café"}', type), { a: 'café' }, String(type));
    }
    assert.deepEqual(refusal(() => jsonObjectBody('\ufeff')), [['body', 'invalid']]);
  });

  it('when objects and arrays nest deeper than 32 levels, be it thousands deep, then each such field is named before any other walk, never a stack overflow', () => {
    const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
    assert.deepEqual(refusal(() => jsonObjectBody(`{"reason":"x","metadata":${deep(6000)},"items":${deep(33)}}`)), [['metadata', 'invalid'], ['items', 'invalid']]);
    // Deep and poisoned: the depth is what is reported, the walk for __proto__ never runs.
    assert.deepEqual(refusal(() => jsonObjectBody(`{"a":${'{"__proto__":'.repeat(5000)}1${'}'.repeat(5000)}}`)), [['a', 'invalid']]);
    assert.deepEqual(jsonObjectBody(`{"metadata":${deep(31)}}`), { metadata: JSON.parse(deep(31)) });
  });
});

describe('The bodies of routes that take none (D29)', () => {
  it('when nothing or an empty JSON object is sent, then there is no body; anything else is one', () => {
    for (const text of [undefined, '', '{}', ' { } ', '\ufeff{}']) assert.equal(carriesBody(text), false, JSON.stringify(text));
    for (const text of ['{"reason":"x"}', '[]', 'null', ' ', 'please', '{}{}']) assert.equal(carriesBody(text), true, JSON.stringify(text));
  });
});

describe('Query parameters of a GET that takes none (D29)', () => {
  it('when parameters are given, then each is named, in request order, in the lists\' words; none is no problem', () => {
    const problem = unknownParametersProblem({ limit: '5', colour: 'red' });
    assert.deepEqual(problem?.errors, [
      { field: 'limit', code: 'invalid', message: 'limit is not a known field.' },
      { field: 'colour', code: 'invalid', message: 'colour is not a known field.' },
    ]);
    assert.equal(unknownParametersProblem({}), undefined);
  });
});

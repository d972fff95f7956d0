/**
 * JavaScript evaluated inside every fresh QuickJS context before the user's code. It evaluates to
 * a factory that installs `console` and returns the helpers the host calls (invoke, serialize,
 * describe, logs). It captures the built-ins it needs up front, so code that later tampers with
 * JSON, Object or the prototypes can only garble its own output, which the host validates anyway.
 * No host function enters the VM: console lines stay in this closure until the host reads them
 * once at the end (a host call per line costs ~50 µs; a flood of logs would pay it 20,000 times).
 *
 * No runtime imports: this file is transpiled to plain JS for the Node worker (generated/, by `npm run generate`).
 */
export const VM_PRELUDE = String.raw`(function (maxLines, maxLineChars, maxResultChars, maxErrorChars) {
  'use strict'
  const stringify = JSON.stringify
  const parse = JSON.parse
  const freeze = Object.freeze
  const isFrozen = Object.isFrozen
  const keys = Object.keys
  const defineProperty = Object.defineProperty
  const apply = Reflect.apply
  const strSlice = String.prototype.slice
  const toStr = String
  const promiseResolve = (value) => Promise.resolve(value)
  const PromiseCtor = Promise
  const ErrorCtor = Error
  const TypeErrorCtor = TypeError

  const cut = (s, max) => (s.length > max ? apply(strSlice, s, [0, max]) + '\u2026' : s)
  const safeString = (v) => {
    try {
      return toStr(v)
    } catch (e) {
      return '[value that cannot be printed]'
    }
  }
  const readString = (obj, key) => {
    try {
      const v = obj[key]
      return typeof v === 'string' ? v : ''
    } catch (e) {
      return ''
    }
  }
  const errorText = (e) => {
    const name = readString(e, 'name') || 'Error'
    const message = readString(e, 'message')
    return message ? name + ': ' + message : name
  }
  const formatOne = (v) => {
    const t = typeof v
    if (t === 'string') return v
    if (t === 'function') return '[Function ' + (readString(v, 'name') || 'anonymous') + ']'
    if (t === 'bigint') return safeString(v) + 'n'
    if (v !== null && t === 'object') {
      if (v instanceof ErrorCtor) return errorText(v)
      try {
        const s = stringify(v)
        if (typeof s === 'string') return s
      } catch (e) {
        // circular or throwing toJSON: fall back to String()
      }
    }
    return safeString(v)
  }
  const lines = []
  let dropped = 0
  const writer = (level) =>
    function () {
      if (lines.length >= maxLines) return void dropped++
      let line = level === 'log' || level === 'info' ? '' : '[' + level + '] '
      for (let i = 0; i < arguments.length && line.length <= maxLineChars; i++) {
        line += (i === 0 ? '' : ' ') + formatOne(arguments[i])
      }
      // defineProperty, not assignment: a setter planted on Array.prototype cannot swallow lines.
      defineProperty(lines, lines.length, { value: cut(line, maxLineChars), writable: true, enumerable: true, configurable: true })
    }
  globalThis.console = {
    log: writer('log'),
    info: writer('info'),
    warn: writer('warn'),
    error: writer('error'),
    debug: writer('debug'),
  }

  const deepFreeze = (v) => {
    if (v !== null && typeof v === 'object' && !isFrozen(v)) {
      freeze(v)
      const ks = keys(v)
      for (let i = 0; i < ks.length; i++) deepFreeze(v[ks[i]])
    }
    return v
  }
  const badType = (t, key) =>
    'B' + (key ? 'The result holds a ' + t + ' at key "' + cut(key, 100) + '"' : 'The code returned a ' + t) +
    '; return JSON data (objects, arrays, strings, numbers, booleans or null).'

  return {
    invoke(fn, bindingsJson, namesJson) {
      if (typeof fn !== 'function') throw new TypeErrorCtor('The code must be the body of a function.')
      const bindings = parse(bindingsJson)
      const names = parse(namesJson)
      const args = []
      for (let i = 0; i < names.length; i++) args[i] = deepFreeze(bindings[names[i]])
      const result = apply(fn, undefined, args)
      return result instanceof PromiseCtor ? result : promiseResolve(result)
    },
    serialize(value) {
      if (value === undefined) return 'Jnull'
      const t = typeof value
      if (t === 'function' || t === 'symbol' || t === 'bigint') return badType(t, '')
      let bad = ''
      let json
      try {
        json = stringify(value, function (key, v) {
          const tv = typeof v
          if (tv === 'function' || tv === 'symbol' || tv === 'bigint') {
            if (!bad) bad = badType(tv, key)
            return undefined
          }
          return v
        })
      } catch (e) {
        return 'BThe result cannot be turned into JSON: ' + cut(errorText(e), maxErrorChars)
      }
      if (bad) return bad
      if (typeof json !== 'string') return 'Jnull'
      if (json.length > maxResultChars) {
        return 'BThe result is ' + json.length + ' characters of JSON; the limit is ' + maxResultChars + '.'
      }
      return 'J' + json
    },
    describe(e) {
      const out = { __proto__: null, nullish: e === null || e === undefined, name: '', message: '', stack: '' }
      if (e !== null && (typeof e === 'object' || typeof e === 'function')) {
        out.name = cut(readString(e, 'name'), 200)
        out.message = cut(readString(e, 'message') || (out.name ? '' : safeString(e)), maxErrorChars)
        out.stack = cut(readString(e, 'stack'), maxErrorChars)
      } else if (!out.nullish) {
        out.message = cut(safeString(e), maxErrorChars)
      }
      return stringify(out)
    },
    logs() {
      // Strings only, so stringify consults no toJSON the code may have planted.
      let out = '{"dropped":' + dropped + ',"lines":['
      for (let i = 0; i < lines.length; i++) out += (i === 0 ? '' : ',') + stringify(lines[i])
      return out + ']}'
    },
  }
})`

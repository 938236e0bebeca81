#!/usr/bin/env node
// read-warc.mjs FILE... : reads WARC files (gzip or plain) with webrecorder's warcio.js, a WARC
// library independent of jwarc, and prints one JSON document on stdout:
//
//   {"files": [{"file": PATH, "gzip": BOOL, "records": N, "counts": {TYPE: N, ...},
//               "entries": [RECORD, ...]}, ...]}
//
// where RECORD holds the record's WARC fields (declared) and what this script recomputed from the
// bytes warcio gave it: the SHA-1 (base32, as WARC headers write it) of the whole block and of the
// HTTP payload, the bytes after the HTTP headers as warcio's header parser finds them (as stored:
// like warcio's own writer, no chunk framing is removed; for a revisit, what the record holds).
//
// Exit codes: 0 all files read; 1 a file is malformed or unreadable (one line on stderr naming the
// file and the cause, nothing on stdout); 2 usage.

import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { createGunzip } from "node:zlib";
import { AsyncIterReader, StatusAndHeadersParser, WARCParser } from "warcio";

const HTTP_TYPES = new Set(["request", "response", "revisit"]);
const REQUIRED = ["WARC-Record-ID", "WARC-Type", "WARC-Date", "Content-Length"];

class Malformed extends Error {}

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** RFC 4648 base32 without padding (a SHA-1's 20 bytes need none). */
function base32(bytes) {
  let out = "";
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) {
    out += BASE32[(value << (5 - bits)) & 31];
  }
  return out;
}

function sha1(bytes) {
  return "sha1:" + base32(createHash("sha1").update(bytes).digest());
}

/** Whether the file starts with gzip's magic bytes, and its last four bytes. */
async function sniff(path) {
  const file = await open(path, "r");
  try {
    const magic = Buffer.alloc(2);
    const { bytesRead } = await file.read(magic, 0, 2, 0);
    const { size } = await file.stat();
    const tail = Buffer.alloc(4);
    await file.read(tail, 0, Math.min(4, size), Math.max(0, size - 4));
    return { size, gzip: bytesRead === 2 && magic[0] === 0x1f && magic[1] === 0x8b, tail };
  } finally {
    await file.close();
  }
}

/** warcio forgives a gzip member cut short; node's zlib does not, so every member must end. */
function checkGzipMembers(path) {
  return new Promise((resolve, reject) => {
    const gunzip = createGunzip();
    gunzip.on("data", () => {});
    gunzip.on("end", resolve);
    gunzip.on("error", (e) => reject(new Malformed(`gzip stream broken: ${e.message}`)));
    createReadStream(path).on("error", reject).pipe(gunzip);
  });
}

function header(record, name) {
  const value = record.warcHeaders.headers.get(name);
  return value === null || value === undefined ? null : value;
}

function list(value) {
  return value === null ? [] : value.split(",").map((v) => v.trim()).filter((v) => v);
}

/** Parses the HTTP message at the start of {@code block} with warcio's own header parser. */
async function parseHttp(block) {
  const reader = new AsyncIterReader([block], null);
  const http = await new StatusAndHeadersParser().parse(reader);
  if (!http) {
    return null;
  }
  return { http, headerLength: reader.getReadOffset() };
}

async function readRecord(record, offset, index) {
  const where = `record ${index} at offset ${offset}`;
  if (!/^WARC\/1\.[01]$/.test(record.warcHeaders.statusline)) {
    throw new Malformed(`${where}: not a WARC version line: ${JSON.stringify(record.warcHeaders.statusline.slice(0, 40))}`);
  }
  for (const name of REQUIRED) {
    if (header(record, name) === null) {
      throw new Malformed(`${where}: no ${name} header`);
    }
  }
  const type = record.warcType;
  const declaredLength = Number(header(record, "Content-Length"));
  if (!Number.isSafeInteger(declaredLength) || declaredLength < 0) {
    throw new Malformed(`${where}: bad Content-Length ${header(record, "Content-Length")}`);
  }
  const block = await record.readFully(false);
  if (block.length !== declaredLength) {
    throw new Malformed(`${where} (${type}): block ends after ${block.length} of ${declaredLength} bytes`);
  }

  const entry = {
    offset,
    type,
    targetUri: header(record, "WARC-Target-URI"),
    recordId: header(record, "WARC-Record-ID"),
    date: header(record, "WARC-Date"),
    concurrentTo: list(header(record, "WARC-Concurrent-To")),
    refersTo: header(record, "WARC-Refers-To"),
    refersToTargetUri: header(record, "WARC-Refers-To-Target-URI"),
    refersToDate: header(record, "WARC-Refers-To-Date"),
    profile: header(record, "WARC-Profile"),
    truncated: header(record, "WARC-Truncated"),
    ipAddress: header(record, "WARC-IP-Address"),
    // A field that repeats (WARC-Protocol: h2, then tls/1.3) comes back joined by commas.
    protocols: list(header(record, "WARC-Protocol")),
    cipherSuite: header(record, "WARC-Cipher-Suite"),
    contentType: header(record, "Content-Type"),
    contentLength: declaredLength,
    blockDigest: header(record, "WARC-Block-Digest"),
    payloadDigest: header(record, "WARC-Payload-Digest"),
    computedBlockDigest: sha1(block),
    computedPayloadDigest: null,
    payloadLength: null,
    httpStatus: null,
    httpMethod: null,
  };

  if (HTTP_TYPES.has(type) && block.length > 0) {
    const parsed = await parseHttp(block);
    if (!parsed) {
      throw new Malformed(`${where} (${type}): no HTTP message in the block`);
    }
    const payload = block.subarray(parsed.headerLength);
    entry.payloadLength = payload.length;
    entry.computedPayloadDigest = sha1(payload);
    if (type === "request") {
      entry.httpMethod = parsed.http.method;
    } else {
      const status = Number(parsed.http.statusCode);
      if (!Number.isInteger(status)) {
        throw new Malformed(`${where} (${type}): bad HTTP status line ${JSON.stringify(parsed.http.statusline)}`);
      }
      entry.httpStatus = status;
    }
  }
  return entry;
}

async function readFile(path) {
  const { size, gzip, tail } = await sniff(path);
  if (size === 0) {
    throw new Malformed("empty file");
  } else if (gzip) {
    await checkGzipMembers(path);
  }
  const entries = [];
  const counts = {};
  const stream = createReadStream(path);
  try {
    const parser = new WARCParser(stream, { parseHttp: false });
    for await (const record of parser) {
      const entry = await readRecord(record, parser.offset, entries.length);
      entries.push(entry);
      counts[entry.type] = (counts[entry.type] || 0) + 1;
    }
  } finally {
    stream.destroy();
  }
  if (entries.length === 0) {
    throw new Malformed("no WARC records");
  }
  if (!gzip && tail.toString("latin1") !== "\r\n\r\n") {
    // warcio reads a last record whose closing CRLF CRLF is cut off without a word.
    throw new Malformed(`record ${entries.length - 1} does not end with CRLF CRLF`);
  }
  return { file: path, gzip, records: entries.length, counts, entries };
}

async function main(paths) {
  if (paths.length === 0) {
    process.stderr.write("usage: read-warc.mjs FILE...\n");
    return 2;
  }
  // warcio reports leftover bytes after a record (a Content-Length that is too small) on
  // console.warn and reads on; here that makes the file malformed.
  const warnings = [];
  console.warn = (...args) => warnings.push(args.join(" ").replace(/\s+/g, " "));
  const files = [];
  for (const path of paths) {
    try {
      warnings.length = 0;
      files.push(await readFile(path));
      if (warnings.length > 0) {
        throw new Malformed(warnings[0]);
      }
    } catch (e) {
      const line = e instanceof Malformed ? `malformed WARC: ${e.message}` : `cannot read: ${e.message}`;
      process.stderr.write(`${path}: ${line.split("\n")[0]}\n`);
      return 1;
    }
  }
  process.stdout.write(JSON.stringify({ files }) + "\n");
  return 0;
}

process.exitCode = await main(process.argv.slice(2));

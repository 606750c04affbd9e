// report.js: the lines t/007_clients.pl reads, for every Node.js client
// program here: "ok - CLIENT: WHAT" for a check that passed, "FAILED -
// CLIENT: WHAT : WHY" on one line for one that failed; done() sets the exit
// status.  CommonJS, so that test.js requires it and the .mjs programs import
// it.
const util = require('node:util');

// The canonical text of a ulid: 26 Crockford Base32 digits, the first 0-7.
const ULID_TEXT = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;

function reporter(client) {
  let failures = 0;

  function check(name, ok, why = '') {
    if (ok) {
      console.log(`ok - ${client}: ${name}`);
    } else {
      failures += 1;
      console.log(`FAILED - ${client}: ${name} : ${String(why).replace(/\s+/g, ' ')}`); // one line per check
    }
  }

  function expectEqual(name, got, want) {
    check(name, util.isDeepStrictEqual(got, want),
      `got ${util.inspect(got)}, want ${util.inspect(want)}`);
  }

  function done() {
    process.exitCode = failures ? 1 : 0;
  }

  return { check, expectEqual, done };
}

module.exports = { reporter, ULID_TEXT };

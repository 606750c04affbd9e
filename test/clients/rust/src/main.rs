//! tokio-postgres against the ulid type; built and run by test/clients/rust/run.
//!
//! Connects through the libpq environment (PGHOST, a socket directory, PGPORT,
//! PGUSER, PGDATABASE) to a database where CREATE EXTENSION ulid has run.
//! Prints "ok - tokio-postgres: WHAT" or "FAILED - tokio-postgres: WHAT : WHY"
//! per check; exits non-zero if any check failed.  The Rust code blocks of
//! docs/clients/rust.md appear verbatim below (test/check_docs.py checks).
//! ULID_TEST_SEED=N replays the random values.

use std::env;
use std::fmt::Debug;
use std::process::exit;
use std::time::{SystemTime, UNIX_EPOCH};

use futures_util::{pin_mut, TryStreamExt};
use tokio_postgres::binary_copy::{BinaryCopyInWriter, BinaryCopyOutStream};
use tokio_postgres::error::SqlState;
use tokio_postgres::{Client, NoTls, SimpleQueryMessage};

// --- docs/clients/rust.md: the adapter ------------------------------------
use std::error::Error;
use std::fmt;
use std::str::FromStr;

use bytes::BytesMut;
use tokio_postgres::types::{to_sql_checked, FromSql, IsNull, Kind, ToSql, Type};

/// A ULID as its 16 bytes, sent and received in the binary format of `ulid`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Ulid(pub [u8; 16]);

/// The `ulid` type, found by name (its oid differs between databases), or a domain over it.
fn is_ulid(ty: &Type) -> bool {
    match ty.kind() {
        Kind::Domain(base) => is_ulid(base),
        _ => ty.name() == "ulid",
    }
}

impl ToSql for Ulid {
    fn to_sql(&self, _: &Type, out: &mut BytesMut) -> Result<IsNull, Box<dyn Error + Sync + Send>> {
        out.extend_from_slice(&self.0);
        Ok(IsNull::No)
    }

    fn accepts(ty: &Type) -> bool {
        is_ulid(ty)
    }

    to_sql_checked!();
}

impl<'a> FromSql<'a> for Ulid {
    fn from_sql(_: &Type, raw: &'a [u8]) -> Result<Ulid, Box<dyn Error + Sync + Send>> {
        let bytes: [u8; 16] = raw
            .try_into()
            .map_err(|_| format!("a ulid is 16 bytes, got {}", raw.len()))?;
        Ok(Ulid(bytes))
    }

    fn accepts(ty: &Type) -> bool {
        is_ulid(ty)
    }
}

const CROCKFORD: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/// The 26-character Crockford Base32 text, as the server prints it.
impl fmt::Display for Ulid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = u128::from_be_bytes(self.0);
        let text: String = (0..26)
            .rev()
            .map(|i| CROCKFORD[(n >> (5 * i)) as usize & 31] as char)
            .collect();
        f.write_str(&text)
    }
}

/// Reads the 26-character text as the server does: either case, and
/// Crockford's aliases I and L for 1 and O for 0.
impl FromStr for Ulid {
    type Err = String;

    fn from_str(s: &str) -> Result<Ulid, String> {
        let invalid = || format!("invalid ULID: {:?}", s);
        if s.len() != 26 {
            return Err(invalid());
        }
        let mut n: u128 = 0;
        // Bytes, not chars: a non-ASCII byte matches no digit.
        for (i, c) in s.bytes().enumerate() {
            let c = match c.to_ascii_uppercase() {
                b'I' | b'L' => b'1',
                b'O' => b'0',
                c => c,
            };
            let digit = CROCKFORD.iter().position(|&d| d == c).ok_or_else(invalid)?;
            if i == 0 && digit > 7 {
                return Err(invalid()); // more than 128 bits
            }
            n = n << 5 | digit as u128;
        }
        Ok(Ulid(n.to_be_bytes()))
    }
}

/// The uuid with the same 16 bytes: what `id::uuid` returns.
impl From<Ulid> for uuid::Uuid {
    fn from(id: Ulid) -> uuid::Uuid {
        uuid::Uuid::from_bytes(id.0)
    }
}

impl From<uuid::Uuid> for Ulid {
    fn from(id: uuid::Uuid) -> Ulid {
        Ulid(id.into_bytes())
    }
}
// --- end of the adapter -----------------------------------------------------

const CLIENT: &str = "tokio-postgres";

type Res<T> = Result<T, Box<dyn Error + Sync + Send>>;

/// Counts checks and prints one line per check.
struct Checks {
    failed: u32,
}

impl Checks {
    fn check(&mut self, what: &str, ok: bool, why: &str) {
        if ok {
            println!("ok - {}: {}", CLIENT, what);
        } else {
            self.failed += 1;
            let why = why.split_whitespace().collect::<Vec<_>>().join(" ");
            println!("FAILED - {}: {} : {}", CLIENT, what, why);
        }
    }

    fn equal<T: PartialEq + Debug>(&mut self, what: &str, got: T, want: T) {
        let why = format!("got {:?}, want {:?}", got, want);
        self.check(what, got == want, &why);
    }

    /// A group of checks that stopped on an unexpected error is one failure.
    fn group(&mut self, what: &str, result: Res<()>) {
        if let Err(e) = result {
            self.check(what, false, &format!("unexpected error: {}", e));
        }
    }

    /// `result` is an error whose SQLSTATE is `code`.
    fn sqlstate<T: Debug>(
        &mut self,
        what: &str,
        result: Result<T, tokio_postgres::Error>,
        code: &str,
    ) {
        match result {
            Ok(v) => self.check(what, false, &format!("no error, got {:?}", v)),
            Err(e) => {
                let got = e.code().map(|c| c.code().to_string());
                self.check(
                    what,
                    got.as_deref() == Some(code),
                    &format!("SQLSTATE {:?}, want {}: {}", got, code, e),
                );
            }
        }
    }

    /// `result` is a client-side error (no SQLSTATE) whose text contains `text`.
    fn client_error<T: Debug>(
        &mut self,
        what: &str,
        result: Result<T, tokio_postgres::Error>,
        text: &str,
    ) {
        match result {
            Ok(v) => self.check(what, false, &format!("no error, got {:?}", v)),
            Err(e) => {
                let msg = e.to_string();
                println!("# {}", msg);
                self.check(
                    what,
                    e.code().is_none() && msg.contains(text),
                    &format!("{:?}, want {:?}", msg, text),
                );
            }
        }
    }
}

/// The test's own decoder, independent of the adapter's and of the extension's:
/// each character as 5 bits in a string of 130, regrouped into 16 bytes.
fn bits_of_text(text: &str) -> Vec<u8> {
    let alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
    let mut bits = String::new();
    for c in text.chars() {
        let v = alphabet
            .find(c.to_ascii_uppercase())
            .expect("Crockford digit");
        bits.push_str(&format!("{:05b}", v));
    }
    let bits = &bits[2..]; // 130 bits, the top two zero
    (0..16)
        .map(|i| u8::from_str_radix(&bits[i * 8..i * 8 + 8], 2).unwrap())
        .collect()
}

/// Known values: the ULID spec's example, the smallest and the largest ULID.
const VECTORS: [(&str, &str, &str); 3] = [
    (
        "01ARYZ6S41TSV4RRFFQ69G5FAV",
        "01563df3-6481-d676-4c61-efb99302bd5b",
        "01563df36481d6764c61efb99302bd5b",
    ),
    (
        "00000000000000000000000000",
        "00000000-0000-0000-0000-000000000000",
        "00000000000000000000000000000000",
    ),
    (
        "7ZZZZZZZZZZZZZZZZZZZZZZZZZ",
        "ffffffff-ffff-ffff-ffff-ffffffffffff",
        "ffffffffffffffffffffffffffffffff",
    ),
];

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{:02x}", b)).collect()
}

/// xorshift64*: random values that a seed replays.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn ulid(&mut self) -> Ulid {
        let mut b = [0u8; 16];
        b[..8].copy_from_slice(&self.next().to_be_bytes());
        b[8..].copy_from_slice(&self.next().to_be_bytes());
        // Few distinct first bytes, so that ties on the leading bytes are common.
        b[0] = (b[0] % 3) * 0x7f;
        Ulid(b)
    }
}

/// A payload that is not 16 bytes: what a broken adapter would send.
#[derive(Debug)]
struct WrongLength(Vec<u8>);

impl ToSql for WrongLength {
    fn to_sql(&self, _: &Type, out: &mut BytesMut) -> Result<IsNull, Box<dyn Error + Sync + Send>> {
        out.extend_from_slice(&self.0);
        Ok(IsNull::No)
    }

    fn accepts(ty: &Type) -> bool {
        is_ulid(ty)
    }

    to_sql_checked!();
}

// --- docs/clients/rust.md: connecting ---------------------------------------
/// Connects with the libpq environment; PGHOST may be a socket directory.
async fn connect_from_env() -> Result<Client, tokio_postgres::Error> {
    let mut config = tokio_postgres::Config::new();
    config.host(&env::var("PGHOST").unwrap_or_else(|_| "/var/run/postgresql".into()));
    config.port(
        env::var("PGPORT")
            .ok()
            .and_then(|p| p.parse().ok())
            .unwrap_or(5432),
    );
    config.user(&env::var("PGUSER").unwrap_or_else(|_| "postgres".into()));
    config.dbname(&env::var("PGDATABASE").unwrap_or_else(|_| "postgres".into()));
    let (client, connection) = config.connect(NoTls).await?;
    tokio::spawn(async move {
        if let Err(e) = connection.await {
            eprintln!("connection error: {}", e);
        }
    });
    Ok(client)
}
// --- end

async fn setup(client: &Client) -> Res<()> {
    client
        .batch_execute(
            "DROP TABLE IF EXISTS orders, orders_copy;
             CREATE TABLE orders (id ulid PRIMARY KEY DEFAULT gen_ulid(), item text NOT NULL);
             CREATE TABLE orders_copy (id ulid PRIMARY KEY, item text NOT NULL);",
        )
        .await?;
    Ok(())
}

async fn default_and_returning(c: &mut Checks, client: &Client) -> Res<()> {
    // --- docs/clients/rust.md: insert with the default
    let row = client
        .query_one(
            "INSERT INTO orders (item) VALUES ($1) RETURNING id",
            &[&"tea"],
        )
        .await?;
    let id: Ulid = row.get("id");
    let found = client
        .query_one("SELECT item FROM orders WHERE id = $1", &[&id])
        .await?;
    let item: &str = found.get(0);
    // --- end
    c.equal(
        "insert with DEFAULT, RETURNING id as Ulid, found again by it",
        item,
        "tea",
    );

    let row = client
        .query_one(
            "SELECT id::text, id::uuid, ulid_time(id) <= now() FROM orders WHERE id = $1",
            &[&id],
        )
        .await?;
    let text: String = row.get(0);
    let as_uuid: uuid::Uuid = row.get(1);
    c.equal(
        "the returned Ulid's Display is the server's text",
        id.to_string(),
        text.clone(),
    );
    c.equal(
        "the returned Ulid is the bytes of id::uuid",
        uuid::Uuid::from(id),
        as_uuid,
    );
    c.equal(
        "the returned Ulid's bytes decode from the server's text (test codec)",
        bits_of_text(&text),
        id.0.to_vec(),
    );
    c.check(
        "the default's time is not in the future",
        row.get::<_, bool>(2),
        "ulid_time(id) > now()",
    );

    let stmt = client.prepare("SELECT $1::ulid").await?;
    c.equal(
        "a ulid parameter is described with the type name ulid",
        stmt.params()[0].name(),
        "ulid",
    );
    let oid: u32 = client
        .query_one("SELECT 'ulid'::regtype::oid", &[])
        .await?
        .get(0);
    c.equal(
        "... and with the database's oid of ulid",
        stmt.params()[0].oid(),
        oid,
    );
    Ok(())
}

async fn refused_without_adapter(c: &mut Checks, client: &Client) -> Res<()> {
    let text = "01ARYZ6S41TSV4RRFFQ69G5FAV";
    let r = client
        .query("SELECT item FROM orders WHERE id = $1", &[&text])
        .await;
    c.client_error(
        "a &str parameter for a ulid is refused before it is sent",
        r,
        "cannot convert between the Rust type `&str` and the Postgres type `ulid`",
    );
    let r = client.query("SELECT $1::ulid", &[&text]).await;
    c.client_error(
        "... also with $1::ulid (the parameter is then typed ulid)",
        r,
        "cannot convert between the Rust type `&str` and the Postgres type `ulid`",
    );
    let u = uuid::Uuid::parse_str("01563df3-6481-d676-4c61-efb99302bd5b")?;
    let r = client
        .query("SELECT item FROM orders WHERE id = $1", &[&u])
        .await;
    c.client_error(
        "a uuid::Uuid parameter for a ulid is refused before it is sent",
        r,
        "cannot convert between the Rust type `uuid::Uuid` and the Postgres type `ulid`",
    );
    let row = client
        .query_one("SELECT id FROM orders LIMIT 1", &[])
        .await?;
    c.client_error(
        "a ulid column read as String is refused",
        row.try_get::<_, String>(0).map_err(Into::into),
        "cannot convert between the Rust type `alloc::string::String` and the Postgres type `ulid`",
    );
    c.client_error(
        "a ulid column read as uuid::Uuid is refused",
        row.try_get::<_, uuid::Uuid>(0).map_err(Into::into),
        "cannot convert between the Rust type `uuid::Uuid` and the Postgres type `ulid`",
    );
    // Typing the parameter as text moves the failure to the server.
    let stmt = client
        .prepare_typed("SELECT item FROM orders WHERE id = $1", &[Type::TEXT])
        .await;
    let message = match &stmt {
        Err(e) => e.as_db_error().map(|d| d.message().to_string()),
        Ok(_) => None,
    };
    c.sqlstate(
        "a parameter typed text: SQLSTATE 42883",
        stmt.map(|_| ()),
        "42883",
    );
    c.equal(
        "... operator does not exist: ulid = text",
        message.as_deref(),
        Some("operator does not exist: ulid = text"),
    );
    Ok(())
}

async fn round_trips(c: &mut Checks, client: &Client) -> Res<()> {
    for (text, uuid_text, hex_bytes) in VECTORS {
        let id: Ulid = text.parse()?;
        c.equal(
            &format!("{}: FromStr gives the known bytes", text),
            hex(&id.0),
            hex_bytes.to_string(),
        );
        c.equal(
            &format!("{}: the test codec gives the known bytes", text),
            hex(&bits_of_text(text)),
            hex_bytes.to_string(),
        );
        let lower: Ulid = text.to_lowercase().parse()?;
        c.equal(&format!("{}: FromStr reads lower case", text), lower, id);

        let row = client
            .query_one(
                "SELECT $1::ulid, $1::ulid::text, $1::ulid::uuid, $1::ulid::bytea, $2::text::ulid",
                &[&id, &text],
            )
            .await?;
        c.equal(
            &format!("{}: Ulid -> server -> Ulid", text),
            row.get::<_, Ulid>(0),
            id,
        );
        c.equal(
            &format!("{}: Ulid -> server -> text", text),
            row.get::<_, String>(1),
            text.to_string(),
        );
        c.equal(
            &format!("{}: Ulid -> server -> uuid", text),
            row.get::<_, uuid::Uuid>(2).to_string(),
            uuid_text.to_string(),
        );
        c.equal(
            &format!("{}: Ulid -> server -> bytea", text),
            hex(row.get::<_, &[u8]>(3)),
            hex_bytes.to_string(),
        );
        c.equal(
            &format!("{}: text -> server -> Ulid", text),
            row.get::<_, Ulid>(4),
            id,
        );

        let u = uuid::Uuid::parse_str(uuid_text)?;
        let row = client
            .query_one("SELECT $1::uuid::ulid, $1::uuid::ulid::text", &[&u])
            .await?;
        c.equal(
            &format!("{}: uuid -> server -> Ulid", text),
            row.get::<_, Ulid>(0),
            Ulid::from(u),
        );
        c.equal(
            &format!("{}: uuid -> server -> text", text),
            row.get::<_, String>(1),
            text.to_string(),
        );
        c.equal(
            &format!("{}: Display", text),
            id.to_string(),
            text.to_string(),
        );
    }

    // FromStr reads what the server reads, to the same bytes: either case, I
    // and L as 1, O as 0, also as the first character.
    for text in [
        "01aryz6s41tsv4rrffq69g5fav",
        "O1ARYZ6S4ITSV4RRFFQ69G5FAV",
        "o1aryz6s4lTSV4RRFFQ69G5FAv",
        "LOLOLOLOLOLOLOLOLOLOLOLOLO",
        "iolIOLiolIOLiolIOLiolIOLio",
        "7zzzzzzzzzzzzzzzzzzzzzzzzz",
    ] {
        let row = client
            .query_one("SELECT $1::text::ulid::bytea", &[&text])
            .await?;
        let server = hex(row.get::<_, &[u8]>(0));
        c.equal(
            &format!("FromStr({:?}) equals the server's '{}'::ulid", text, text),
            text.parse::<Ulid>().map(|u| hex(&u.0)),
            Ok(server),
        );
    }
    Ok(())
}

async fn text_and_uuid_recipes(c: &mut Checks, client: &Client) -> Res<()> {
    let text = "01ARYZ6S41TSV4RRFFQ69G5FAV";
    client
        .execute(
            "INSERT INTO orders (id, item) VALUES ($1::text::ulid, 'coffee')",
            &[&text],
        )
        .await?;

    let messages = client
        .simple_query("SELECT id FROM orders WHERE item = 'coffee'")
        .await?;
    let texts: Vec<Option<String>> = messages
        .iter()
        .filter_map(|m| match m {
            SimpleQueryMessage::Row(row) => Some(row.get(0).map(String::from)),
            _ => None,
        })
        .collect();
    c.equal(
        "simple_query (the text protocol) returns the text form",
        texts,
        vec![Some(text.to_string())],
    );

    // --- docs/clients/rust.md: text without the adapter
    let row = client
        .query_one(
            "SELECT id::text, item FROM orders WHERE id = $1::text::ulid",
            &[&"01ARYZ6S41TSV4RRFFQ69G5FAV"],
        )
        .await?;
    let id: String = row.get(0); // "01ARYZ6S41TSV4RRFFQ69G5FAV"
                                 // --- end
    c.equal(
        "text parameter through $1::text::ulid, read back as id::text",
        id.as_str(),
        text,
    );
    c.equal("... the row found", row.get::<_, &str>(1), "coffee");

    // --- docs/clients/rust.md: uuid::Uuid without the adapter
    let order_id = uuid::Uuid::parse_str("01563df3-6481-d676-4c61-efb99302bd5b")?; // 01ARYZ6S41TSV4RRFFQ69G5FAV
    let row = client
        .query_one(
            "SELECT id::uuid, item FROM orders WHERE id = $1::uuid",
            &[&order_id],
        )
        .await?;
    let back: uuid::Uuid = row.get(0);
    // --- end
    c.equal(
        "uuid::Uuid parameter through $1::uuid (ulid = uuid), read back as id::uuid",
        back,
        order_id,
    );
    c.equal("... the row found", row.get::<_, &str>(1), "coffee");

    // Whether the index can serve it, whatever the table's size.
    client.batch_execute("SET enable_seqscan = off").await?;
    let plan: Vec<String> = client
        .query(
            "EXPLAIN (COSTS OFF) SELECT item FROM orders WHERE id = $1::uuid",
            &[&order_id],
        )
        .await?
        .iter()
        .map(|r| r.get(0))
        .collect();
    c.check(
        "WHERE id = $1::uuid can use the primary key index",
        plan.join(" ").contains("orders_pkey"),
        &plan.join(" | "),
    );
    client.batch_execute("RESET enable_seqscan").await?;

    let bytes: &[u8] = &order_id.as_bytes()[..];
    let row = client
        .query_one(
            "SELECT id::bytea, item FROM orders WHERE id = $1::bytea::ulid",
            &[&bytes],
        )
        .await?;
    c.equal(
        "&[u8] parameter through $1::bytea::ulid, read back as id::bytea",
        row.get::<_, &[u8]>(0),
        bytes,
    );

    let id: Ulid = text.parse()?;
    let row = client
        .query_one("SELECT item FROM orders WHERE id = $1", &[&id])
        .await?;
    c.equal(
        "Ulid parameter for a ulid column",
        row.get::<_, &str>(0),
        "coffee",
    );
    let row = client
        .query_one(
            "SELECT item FROM orders WHERE id = $1",
            &[&Ulid::from(order_id)],
        )
        .await?;
    c.equal(
        "uuid::Uuid converted to Ulid as the parameter",
        row.get::<_, &str>(0),
        "coffee",
    );
    Ok(())
}

async fn arrays(c: &mut Checks, client: &Client, rng: &mut Rng) -> Res<()> {
    let mut ids: Vec<Ulid> = (0..5).map(|_| rng.ulid()).collect();
    for (i, id) in ids.iter().enumerate() {
        client
            .execute(
                "INSERT INTO orders (id, item) VALUES ($1, $2)",
                &[id, &format!("array {}", i)],
            )
            .await?;
    }
    ids.truncate(3);
    let mut want: Vec<String> = (0..3).map(|i| format!("array {}", i)).collect();
    want.sort();

    // --- docs/clients/rust.md: arrays
    let rows = client
        .query(
            "SELECT item FROM orders WHERE id = ANY($1) ORDER BY item",
            &[&ids],
        )
        .await?;
    let row = client
        .query_one(
            "SELECT array_agg(id ORDER BY id) FROM orders WHERE id = ANY($1)",
            &[&ids],
        )
        .await?;
    let found: Vec<Ulid> = row.get(0);
    // --- end
    let items: Vec<String> = rows.iter().map(|r| r.get(0)).collect();
    c.equal(
        "Vec<Ulid> as ulid[] with = ANY($1)",
        items.clone(),
        want.clone(),
    );
    let mut sorted = ids.clone();
    sorted.sort();
    c.equal("ulid[] read back as Vec<Ulid>", found, sorted);

    let uuids: Vec<uuid::Uuid> = ids.iter().map(|&id| id.into()).collect();
    let rows = client
        .query(
            "SELECT item FROM orders WHERE id = ANY($1::uuid[]) ORDER BY item",
            &[&uuids],
        )
        .await?;
    let items: Vec<String> = rows.iter().map(|r| r.get(0)).collect();
    c.equal(
        "Vec<uuid::Uuid> with = ANY($1::uuid[])",
        items,
        want.clone(),
    );

    let texts: Vec<String> = ids.iter().map(|id| id.to_string()).collect();
    let rows = client
        .query(
            "SELECT item FROM orders WHERE id = ANY($1::text[]::ulid[]) ORDER BY item",
            &[&texts],
        )
        .await?;
    let items: Vec<String> = rows.iter().map(|r| r.get(0)).collect();
    c.equal("Vec<String> with = ANY($1::text[]::ulid[])", items, want);

    let none: Vec<Ulid> = Vec::new();
    let rows = client
        .query("SELECT item FROM orders WHERE id = ANY($1)", &[&none])
        .await?;
    c.equal("an empty Vec<Ulid> matches nothing", rows.len(), 0);
    let with_null: Vec<Option<Ulid>> = vec![Some(ids[0]), None];
    let row = client.query_one("SELECT $1::ulid[]", &[&with_null]).await?;
    c.equal(
        "Vec<Option<Ulid>> round trip with a NULL element",
        row.get::<_, Vec<Option<Ulid>>>(0),
        with_null,
    );
    let row = client.query_one("SELECT NULL::ulid", &[]).await?;
    c.equal(
        "NULL reads as Option<Ulid>::None",
        row.get::<_, Option<Ulid>>(0),
        None,
    );
    Ok(())
}

async fn prepared_and_ordering(c: &mut Checks, client: &Client, rng: &mut Rng) -> Res<()> {
    client.execute("DELETE FROM orders", &[]).await?;
    let ids: Vec<Ulid> = (0..200).map(|_| rng.ulid()).collect();
    let insert = client
        .prepare("INSERT INTO orders (id, item) VALUES ($1, $2)")
        .await?;
    for (i, id) in ids.iter().enumerate() {
        client
            .execute(&insert, &[id, &format!("item {}", i)])
            .await?;
    }

    // --- docs/clients/rust.md: a prepared statement
    let stmt = client
        .prepare("SELECT item FROM orders WHERE id = $1")
        .await?;
    let mut items: Vec<String> = Vec::new();
    for id in &ids {
        let row = client.query_one(&stmt, &[id]).await?;
        items.push(row.get(0));
    }
    // --- end
    let want: Vec<String> = (0..ids.len()).map(|i| format!("item {}", i)).collect();
    c.equal(
        "a prepared statement executed for each of 200 random ids",
        items,
        want,
    );
    let mut ok = true;
    for (i, id) in ids.iter().enumerate() {
        let item: String = client.query_one(&stmt, &[id]).await?.get(0);
        ok &= item == format!("item {}", i);
    }
    c.check(
        "... and executed 200 times more (past any plan-cache threshold)",
        ok,
        "a row had the wrong item",
    );

    let by_server: Vec<Ulid> = client
        .query("SELECT id FROM orders ORDER BY id", &[])
        .await?
        .iter()
        .map(|r| r.get(0))
        .collect();
    let mut by_bytes = ids.clone();
    by_bytes.sort();
    c.check(
        "ORDER BY id equals the byte order of the Ulid values",
        by_server == by_bytes,
        "orders differ",
    );
    let mut texts: Vec<String> = ids.iter().map(|id| id.to_string()).collect();
    texts.sort();
    let shown: Vec<String> = by_server.iter().map(|id| id.to_string()).collect();
    c.check(
        "ORDER BY id equals the text order of the values",
        shown == texts,
        "orders differ",
    );
    let server_text: Vec<String> = client
        .query("SELECT id::text FROM orders ORDER BY id", &[])
        .await?
        .iter()
        .map(|r| r.get(0))
        .collect();
    c.equal(
        "Display of each Ulid equals the server's text",
        shown,
        server_text,
    );
    let min: Ulid = client
        .query_one("SELECT min(id) FROM orders", &[])
        .await?
        .get(0);
    c.equal("min(id) is the smallest Ulid", min, by_bytes[0]);
    Ok(())
}

async fn copy_both_ways(c: &mut Checks, client: &Client) -> Res<()> {
    let want: Vec<(Ulid, String)> = client
        .query("SELECT id, item FROM orders ORDER BY id", &[])
        .await?
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect();
    // --- docs/clients/rust.md: binary COPY
    let ulid_type = client.prepare("SELECT $1::ulid").await?.params()[0].clone();
    let types = [ulid_type, Type::TEXT];

    let stream = client
        .copy_out("COPY (SELECT id, item FROM orders ORDER BY id) TO STDOUT (FORMAT binary)")
        .await?;
    let stream = BinaryCopyOutStream::new(stream, &types);
    pin_mut!(stream);
    let mut rows: Vec<(Ulid, String)> = Vec::new();
    while let Some(row) = stream.try_next().await? {
        rows.push((row.get(0), row.get(1)));
    }

    let sink = client
        .copy_in("COPY orders_copy (id, item) FROM STDIN (FORMAT binary)")
        .await?;
    let writer = BinaryCopyInWriter::new(sink, &types);
    pin_mut!(writer);
    for (id, item) in &rows {
        writer.as_mut().write(&[id, item]).await?;
    }
    writer.finish().await?;
    // --- end
    c.equal("binary COPY TO STDOUT read as Ulid values", &rows, &want);
    let copied: Vec<(Ulid, String)> = client
        .query("SELECT id, item FROM orders_copy ORDER BY id", &[])
        .await?
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect();
    c.check(
        "binary COPY FROM STDIN with Ulid values: the copied rows equal the source rows",
        copied == want && !copied.is_empty(),
        &format!("{} rows copied, {} in the source", copied.len(), want.len()),
    );
    Ok(())
}

async fn domain(c: &mut Checks, client: &Client) -> Res<()> {
    client
        .batch_execute(
            "DROP DOMAIN IF EXISTS order_id CASCADE;
             CREATE DOMAIN order_id AS ulid NOT NULL;
             CREATE TABLE orders_domain (id order_id PRIMARY KEY)",
        )
        .await?;
    let id: Ulid = "01ARYZ6S41TSV4RRFFQ69G5FAV".parse()?;
    client
        .execute("INSERT INTO orders_domain VALUES ($1)", &[&id])
        .await?;
    let stmt = client
        .prepare("INSERT INTO orders_domain VALUES ($1)")
        .await?;
    c.equal(
        "a parameter for a domain over ulid is typed with the domain",
        stmt.params()[0].name(),
        "order_id",
    );
    let row = client
        .query_one("SELECT id FROM orders_domain WHERE id = $1", &[&id])
        .await?;
    c.equal(
        "Ulid into and out of a column of a domain over ulid",
        row.get::<_, Ulid>(0),
        id,
    );
    let row = client.query_one("SELECT $1::order_id", &[&id]).await?;
    c.equal(
        "Ulid as a domain-typed parameter",
        row.get::<_, Ulid>(0),
        id,
    );
    client
        .batch_execute("DROP TABLE orders_domain; DROP DOMAIN order_id")
        .await?;
    Ok(())
}

async fn errors(c: &mut Checks, client: &Client) -> Res<()> {
    // --- docs/clients/rust.md: invalid text
    let err = client
        .query_one("SELECT $1::text::ulid", &[&"not-a-ulid"])
        .await
        .unwrap_err();
    let invalid = err.code() == Some(&SqlState::INVALID_TEXT_REPRESENTATION);
    // --- end
    c.check(
        "invalid text: the error's code is SqlState::INVALID_TEXT_REPRESENTATION",
        invalid,
        &err.to_string(),
    );
    // 'ſ' is 2 bytes and upper-cases to 'S': the first is 26 bytes, 25 chars.
    for bad in [
        "01ARYZ6S41TSV4RRFFQ69G5Fſ",
        "01ARYZ6S41TSV4RRFFQ69G5Fé",
        "01ARYZ6S41TSV4RRFFQ69G5FÄV",
        "not-a-ulid",
        "",
        "01ARYZ6S41TSV4RRFFQ69G5FA",
        "01ARYZ6S41TSV4RRFFQ69G5FAVV",
        "81ARYZ6S41TSV4RRFFQ69G5FAV",
        "zZZZZZZZZZZZZZZZZZZZZZZZZZ",
        "01ARYZ6S41TSV4RRFFQ69G5FAU",
        "01aryz6s41tsv4rrffq69g5fau",
        "01ARYZ6S41TSV4RRFFQ69G5FA ",
    ] {
        let r = client
            .query_one("SELECT $1::text::ulid", &[&bad])
            .await
            .map(|_| ());
        c.sqlstate(
            &format!("invalid text {:?} gives SQLSTATE 22P02", bad),
            r,
            "22P02",
        );
        c.check(
            &format!("... and FromStr refuses {:?}", bad),
            bad.parse::<Ulid>().is_err(),
            "parsed",
        );
    }
    let uuid_form = "01563df3-6481-d676-4c61-efb99302bd5b";
    let server = client
        .query_one("SELECT $1::text::ulid", &[&uuid_form])
        .await?
        .get::<_, Ulid>(0);
    c.check(
        "the uuid form: the server reads it, FromStr refuses it (uuid::Uuid::parse_str reads it)",
        uuid_form.parse::<Ulid>().is_err()
            && Ulid::from(uuid::Uuid::parse_str(uuid_form)?) == server,
        "FromStr parsed it, or the uuid differs",
    );
    let r = client
        .query_one("SELECT $1::ulid", &[&WrongLength(vec![1; 15])])
        .await
        .map(|_| ());
    let message = r
        .as_ref()
        .err()
        .and_then(|e| e.as_db_error())
        .map(|d| d.message().to_string());
    c.sqlstate("a binary ulid of 15 bytes gives SQLSTATE 22P03", r, "22P03");
    c.equal(
        "... invalid length in external \"ulid\" value",
        message.as_deref(),
        Some("invalid length in external \"ulid\" value"),
    );
    let r = client
        .query_one("SELECT $1::ulid", &[&WrongLength(vec![1; 17])])
        .await
        .map(|_| ());
    c.sqlstate("a binary ulid of 17 bytes gives SQLSTATE 22P03", r, "22P03");
    let r = client
        .query_one("SELECT $1::ulid", &[&WrongLength(vec![1; 16])])
        .await?;
    c.equal(
        "... and one of 16 bytes is read",
        r.get::<_, Ulid>(0),
        Ulid([1; 16]),
    );
    let r = client.query_one("SELECT '\\x0102'::bytea", &[]).await?;
    c.client_error(
        "a bytea column read as Ulid is refused",
        r.try_get::<_, Ulid>(0).map_err(Into::into),
        "cannot convert between the Rust type",
    );
    Ok(())
}

async fn run(c: &mut Checks) -> Res<()> {
    let seed: u64 = match env::var("ULID_TEST_SEED") {
        Ok(s) => s.parse()?,
        Err(_) => SystemTime::now().duration_since(UNIX_EPOCH)?.as_nanos() as u64 | 1,
    };
    println!("# ULID_TEST_SEED={}", seed);
    let mut rng = Rng(seed);
    let client = connect_from_env().await?;
    setup(&client).await?;
    let r = default_and_returning(c, &client).await;
    c.group("insert with the default", r);
    let r = refused_without_adapter(c, &client).await;
    c.group("what tokio-postgres refuses without the adapter", r);
    let r = round_trips(c, &client).await;
    c.group("round trips", r);
    let r = text_and_uuid_recipes(c, &client).await;
    c.group("text and uuid recipes", r);
    let r = arrays(c, &client, &mut rng).await;
    c.group("arrays", r);
    let r = prepared_and_ordering(c, &client, &mut rng).await;
    c.group("prepared statement and ordering", r);
    let r = copy_both_ways(c, &client).await;
    c.group("binary COPY", r);
    let r = domain(c, &client).await;
    c.group("a domain over ulid", r);
    let r = errors(c, &client).await;
    c.group("errors", r);
    client
        .batch_execute("DROP TABLE orders, orders_copy")
        .await?;
    if env::var("ULID_RUST_BENCH").is_ok() {
        bench(&client).await?;
    }
    Ok(())
}

/// ULID_RUST_BENCH=1: how long reading 100,000 ids takes as Ulid, as String
/// (id::text) and as uuid::Uuid (id::uuid); the best of 5, as diagnostics.
async fn bench(client: &Client) -> Res<()> {
    client
        .batch_execute(
            "CREATE TEMP TABLE bench AS SELECT gen_ulid() AS id FROM generate_series(1, 100000)",
        )
        .await?;
    for (what, sql) in [
        ("Ulid", "SELECT id FROM bench"),
        ("String", "SELECT id::text FROM bench"),
        ("uuid::Uuid", "SELECT id::uuid FROM bench"),
    ] {
        let mut best = f64::MAX;
        for _ in 0..5 {
            let start = std::time::Instant::now();
            let rows = client.query(sql, &[]).await?;
            let n = match what {
                "Ulid" => rows
                    .iter()
                    .map(|r| r.get::<_, Ulid>(0).0[15] as usize)
                    .sum::<usize>(),
                "String" => rows.iter().map(|r| r.get::<_, String>(0).len()).sum(),
                _ => rows
                    .iter()
                    .map(|r| r.get::<_, uuid::Uuid>(0).as_bytes()[15] as usize)
                    .sum(),
            };
            best = best.min(start.elapsed().as_secs_f64());
            assert!(n > 0);
        }
        println!("# bench: 100,000 ids as {}: {:.1} ms", what, best * 1000.0);
    }
    Ok(())
}

fn main() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("tokio runtime");
    let mut c = Checks { failed: 0 };
    let r = runtime.block_on(run(&mut c));
    c.group("the program", r);
    exit(if c.failed > 0 { 1 } else { 0 });
}

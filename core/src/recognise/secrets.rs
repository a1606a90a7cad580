//! Credential recognisers: the token shapes of known providers, literal
//! values that look like keys under secret-sounding names, and variable
//! references and placeholders that are fine. Pure text patterns, below
//! both the build's credential scan (`credentials.rs`) and validate's
//! `secret` rules (`validate/secrets.rs`).

/// The first 4 characters and an ellipsis.
pub(crate) fn preview(secret: &str) -> String {
    let head: String = secret.chars().take(4).collect();
    format!("{head}…")
}

/// Known credential shapes in `text`: (what it is, the token).
pub(crate) fn token_shapes(text: &str) -> Vec<(&'static str, &str)> {
    let mut found = Vec::new();
    // Scanned once a line of every source file: the byte checks keep a line
    // without `-` or `@` from paying for a substring search.
    if let Some(start) = text.as_bytes().contains(&b'-').then(|| text.find("-----BEGIN ")).flatten() {
        let rest = &text[start..];
        let header = rest.find("PRIVATE KEY-----").filter(|end| !rest[..*end].contains('\n') || *end < 40);
        // A key has a body: a header quoted in prose, or followed by `...`
        // in an example, holds nothing to leak.
        if let Some(end) = header.filter(|end| has_key_body(&rest[end + "PRIVATE KEY-----".len()..])) {
            found.push(("private key", &rest[..end + "PRIVATE KEY-----".len()]));
        }
    }
    for word in words(text) {
        if let Some(kind) = token_kind(word) {
            found.push((kind, word));
        }
    }
    if text.as_bytes().contains(&b'@') {
        found.extend(url_passwords(text).into_iter().map(|password| ("password in a URL", password)));
    }
    if text.contains("hooks.slack.com/") {
        found.extend(slack_webhooks(text).into_iter().map(|url| ("Slack webhook URL", url)));
    }
    found
}

/// `hooks.slack.com/services/T…/B…/secret` (and `/workflows/…`): whoever
/// holds the URL can post to the channel. The URL from `hooks.` on.
fn slack_webhooks(text: &str) -> Vec<&str> {
    let mut found = Vec::new();
    for (start, _) in text.match_indices("hooks.slack.com/") {
        let rest = &text[start..];
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '/' | '_' | '-')))
            .unwrap_or(rest.len());
        let url = &rest[..end];
        let parts: Vec<&str> = url.split('/').collect();
        let secret_ok =
            |secret: &str| secret.len() >= 20 && secret.bytes().all(|b| b.is_ascii_alphanumeric());
        let is_webhook = match parts.as_slice() {
            [_, "services", team, bot, secret, ..] => {
                team.starts_with('T') && bot.starts_with('B') && secret_ok(secret)
            }
            [_, "workflows", team, _, _, secret, ..] => team.starts_with('T') && secret_ok(secret),
            _ => false,
        };
        if is_webhook && !is_reference_or_placeholder(url) {
            found.push(url);
        }
    }
    found
}

/// Private keys anywhere in a whole text (PEM, OpenSSH, PGP armor), header
/// and body on lines of their own: each key's byte offset and header line.
/// A header with no body after it (quoted in prose, or an example with
/// `...`) is no key.
pub(crate) fn private_keys(text: &str) -> Vec<(usize, &str)> {
    let mut found = Vec::new();
    for (start, _) in text.match_indices("-----BEGIN ") {
        let rest = &text[start..];
        let line_end = rest.find(['\n', '\r']).unwrap_or(rest.len());
        let header = &rest[..line_end];
        let Some(close) = header["-----BEGIN ".len()..].find("-----") else { continue };
        let label = &header["-----BEGIN ".len()..][..close];
        if !label.contains("PRIVATE KEY") {
            continue;
        }
        let header = &rest[.."-----BEGIN ".len() + close + "-----".len()];
        if has_armored_body(&rest[header.len()..]) {
            found.push((start, header));
        }
    }
    found
}

/// [`has_key_body`] after the armor headers a PGP block may open with
/// (`Version: …`, `Comment: …`, then a blank line).
fn has_armored_body(after_header: &str) -> bool {
    let mut rest = after_header.trim_start_matches([' ', '\t', '\r', '\n']);
    while let Some((line, next)) = rest.split_once('\n') {
        let armor = line.split_once(": ").is_some_and(|(key, _)| {
            !key.is_empty() && key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        });
        if !armor {
            break;
        }
        rest = next.trim_start_matches([' ', '\t', '\r', '\n']);
    }
    has_key_body(rest)
}

/// Whether byte `b` can be part of a token (letters, digits, `_`, `-`, `.`).
const fn is_token_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.')
}

/// [`is_token_byte`] for every byte: one lookup a byte on the hot path.
const TOKEN_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = is_token_byte(b as u8);
        b += 1;
    }
    table
};

/// The shortest run [`words`] yields.
const MIN_WORD: usize = 16;

/// Runs of token characters (letters, digits, `_`, `-`, `.`) of at least 16
/// bytes, trailing dots dropped. Byte-wise: every token character is ASCII,
/// so a byte of a multi-byte character ends a run as the character would.
///
/// Every text file of a source and of each bundle passes through here, so
/// it probes one byte in 16 instead of reading them all: a run of 16 or
/// more that starts at or after `from` covers the byte at `from + 15`, so
/// when that byte is no token byte no such run starts before it, and the
/// scan moves 16 bytes on. Only runs around a probed token byte are read
/// whole. In prose, which is most of what a plugin holds, that reads about
/// half the bytes.
fn words(text: &str) -> impl Iterator<Item = &str> {
    let bytes = text.as_bytes();
    let token = move |at: usize| TOKEN_BYTES[bytes[at] as usize];
    // No run of MIN_WORD bytes starts before `from` unreported, and the byte
    // before `from` (if any) is no token byte: a run reaching past it starts
    // at or after it.
    let mut from = 0;
    std::iter::from_fn(move || {
        loop {
            let probe = from + MIN_WORD - 1;
            if probe >= bytes.len() {
                return None;
            }
            if !token(probe) {
                from = probe + 1;
                continue;
            }
            let mut start = probe;
            while start > from && token(start - 1) {
                start -= 1;
            }
            let mut end = probe + 1;
            while end < bytes.len() && token(end) {
                end += 1;
            }
            from = end + 1;
            if end - start >= MIN_WORD {
                // Both ends sit next to ASCII bytes (or the text's ends): char boundaries.
                let word = text[start..end].trim_end_matches('.');
                if word.len() >= MIN_WORD {
                    return Some(word);
                }
            }
        }
    })
}

/// The characters a token's body is made of.
#[derive(Clone, Copy)]
enum Body {
    /// Letters and digits.
    Alnum,
    /// Letters, digits, `_` and `-`.
    Token,
    /// Letters, digits, `_`, `-` and `.`.
    Dotted,
    /// Lowercase hexadecimal digits.
    Hex,
    /// Uppercase letters and digits.
    Upper,
}

impl Body {
    fn admits(self, b: u8) -> bool {
        match self {
            Body::Alnum => b.is_ascii_alphanumeric(),
            Body::Token => b.is_ascii_alphanumeric() || b == b'_' || b == b'-',
            Body::Dotted => b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'),
            Body::Hex => b.is_ascii_digit() || (b'a'..=b'f').contains(&b),
            Body::Upper => b.is_ascii_uppercase() || b.is_ascii_digit(),
        }
    }
}

/// A token recognised by its prefix and the length and characters of what
/// follows it.
struct Shape {
    kind: &'static str,
    prefix: &'static str,
    body: Body,
    min: usize,
    max: usize,
}

const fn shape(kind: &'static str, prefix: &'static str, body: Body, min: usize, max: usize) -> Shape {
    Shape { kind, prefix, body, min, max }
}

/// The prefixed token formats gitleaks (`config/gitleaks.toml`) publishes
/// for common providers, as prefix + body length and alphabet. Longer
/// prefixes come before the shorter ones they start with.
const SHAPES: &[Shape] = &[
    shape("GitHub token", "ghp_", Body::Alnum, 36, 36),
    shape("GitHub token", "gho_", Body::Alnum, 36, 36),
    shape("GitHub token", "ghu_", Body::Alnum, 36, 36),
    shape("GitHub token", "ghs_", Body::Alnum, 36, 36),
    shape("GitHub token", "ghr_", Body::Alnum, 36, 36),
    shape("GitHub token", "github_pat_", Body::Token, 22, 255),
    shape("Anthropic API key", "sk-ant-", Body::Token, 20, 255),
    shape("OpenAI API key", "sk-proj-", Body::Token, 20, 255),
    shape("OpenAI API key", "sk-svcacct-", Body::Token, 20, 255),
    shape("OpenAI API key", "sk-admin-", Body::Token, 20, 255),
    shape("Slack token", "xoxb-", Body::Token, 10, 255),
    shape("Slack token", "xoxa-", Body::Token, 10, 255),
    shape("Slack token", "xoxp-", Body::Token, 10, 255),
    shape("Slack token", "xoxr-", Body::Token, 10, 255),
    shape("Slack token", "xoxs-", Body::Token, 10, 255),
    shape("Slack token", "xoxe.xox", Body::Token, 10, 255),
    shape("Slack token", "xoxe-", Body::Token, 10, 255),
    shape("Slack app token", "xapp-", Body::Token, 10, 255),
    shape("Google API key", "AIza", Body::Token, 35, 35),
    shape("GitLab token", "glpat-", Body::Token, 20, 255),
    shape("GitLab token", "gldt-", Body::Token, 20, 255),
    shape("GitLab token", "glrt-", Body::Token, 20, 255),
    shape("GitLab token", "glcbt-", Body::Token, 20, 255),
    shape("GitLab token", "glsoat-", Body::Token, 20, 255),
    shape("GitLab token", "glffct-", Body::Token, 20, 255),
    shape("GitLab token", "gloas-", Body::Token, 20, 255),
    shape("GitLab token", "glptt-", Body::Hex, 40, 40),
    shape("GitLab token", "GR1348941", Body::Token, 20, 20),
    // Stripe's keys carry at least 24 characters after the prefix; shorter
    // ones are the made-up examples security guides quote.
    shape("Stripe key", "sk_live_", Body::Alnum, 24, 99),
    shape("Stripe key", "sk_test_", Body::Alnum, 24, 99),
    shape("Stripe key", "sk_prod_", Body::Alnum, 24, 99),
    shape("Stripe key", "rk_live_", Body::Alnum, 24, 99),
    shape("Stripe key", "rk_test_", Body::Alnum, 24, 99),
    shape("Stripe key", "rk_prod_", Body::Alnum, 24, 99),
    shape("npm token", "npm_", Body::Alnum, 36, 36),
    shape("PyPI token", "pypi-AgEIcHlwaS5vcmc", Body::Token, 50, 255),
    // Hugging Face's user tokens are 34 letters and digits after `hf_`
    // (gitleaks allows letters only; real tokens hold digits too).
    shape("Hugging Face token", "hf_", Body::Alnum, 34, 34),
    shape("Hugging Face token", "api_org_", Body::Alnum, 34, 34),
    shape("Shopify token", "shpat_", Body::Hex, 32, 32),
    shape("Shopify token", "shpca_", Body::Hex, 32, 32),
    shape("Shopify token", "shppa_", Body::Hex, 32, 32),
    shape("Shopify token", "shpss_", Body::Hex, 32, 32),
    shape("DigitalOcean token", "dop_v1_", Body::Hex, 64, 64),
    shape("DigitalOcean token", "doo_v1_", Body::Hex, 64, 64),
    shape("DigitalOcean token", "dor_v1_", Body::Hex, 64, 64),
    shape("Databricks token", "dapi", Body::Hex, 32, 34),
    shape("Doppler token", "dp.pt.", Body::Alnum, 43, 43),
    shape("Linear API key", "lin_api_", Body::Alnum, 40, 40),
    shape("Pulumi token", "pul-", Body::Hex, 40, 40),
    shape("Postman API key", "PMAK-", Body::Token, 59, 59),
    shape("Grafana token", "glsa_", Body::Token, 41, 41),
    shape("Grafana token", "glc_", Body::Token, 32, 400),
    shape("New Relic key", "NRAK-", Body::Upper, 27, 27),
    shape("Sentry token", "sntryu_", Body::Hex, 64, 64),
    shape("Sentry token", "sntrys_", Body::Dotted, 50, 255),
    shape("SendGrid API key", "SG.", Body::Dotted, 66, 66),
    shape("Square token", "sq0atp-", Body::Token, 22, 22),
    shape("Square token", "sq0csp-", Body::Token, 43, 43),
    shape("Fly.io token", "fo1_", Body::Token, 43, 43),
    shape("HashiCorp Vault token", "hvs.", Body::Token, 90, 255),
    shape("HashiCorp Vault token", "hvb.", Body::Token, 138, 300),
    shape("age secret key", "AGE-SECRET-KEY-1", Body::Upper, 58, 58),
    shape("Twilio API key", "SK", Body::Hex, 32, 32),
];

fn token_kind(word: &str) -> Option<&'static str> {
    let matches = |s: &Shape| {
        word.strip_prefix(s.prefix).is_some_and(|rest| {
            (s.min..=s.max).contains(&rest.len()) && rest.bytes().all(|b| s.body.admits(b))
        })
    };
    if let Some(found) = SHAPES.iter().find(|s| matches(s)) {
        return Some(found.kind);
    }
    let aws = ["AKIA", "ASIA", "ABIA", "ACCA"].iter().any(|p| word.starts_with(p)) || word.starts_with("A3T");
    if aws && word.len() == 20 && word.bytes().all(|b| Body::Upper.admits(b)) {
        Some("AWS access key id")
    } else if word.strip_prefix("sk-").is_some_and(|rest| {
        rest.len() >= 20
            && rest.bytes().all(|b| Body::Token.admits(b))
            && rest.bytes().any(|b| b.is_ascii_digit())
    }) {
        Some("OpenAI-style API key")
    } else if is_jwt(word) {
        Some("JSON Web Token")
    } else {
        None
    }
}

/// `scheme://user:password@host` passwords that are literal, not a
/// variable reference or placeholder.
fn url_passwords(text: &str) -> Vec<&str> {
    let mut found = Vec::new();
    for url in super::urls::urls_in(text) {
        let Some((_, rest)) = url.split_once("://") else { continue };
        let authority = rest.split(['/', '?', '#']).next().unwrap_or(rest);
        let Some((userinfo, _)) = authority.rsplit_once('@') else { continue };
        let Some((_, password)) = userinfo.split_once(':') else { continue };
        // `user:password@` and the like are how documentation spells a URL.
        let spelled_out =
            ["password", "passwd", "secret", "pass", "pwd"].contains(&password.to_ascii_lowercase().as_str());
        let user = userinfo.split_once(':').map_or("", |(user, _)| user);
        if password.len() >= 6
            && !spelled_out
            && password != user
            && !is_reference_or_placeholder(password)
            && !is_local_or_example_host(url)
            && !is_sentry_dsn(url)
        {
            found.push(password);
        }
    }
    found
}

/// The host of `scheme://user:password@host…`, without its port.
fn url_host(url: &str) -> &str {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or(rest);
    let host = authority.rsplit_once('@').map_or(authority, |(_, host)| host);
    match host.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(v6),
        None => host.split(':').next().unwrap_or(host),
    }
}

/// A URL to this machine (`postgres://postgres:postgres@localhost`, a
/// local development default) or to a name kept for documentation (RFC
/// 2606 and RFC 6761: `example.com`, `*.test`, `*.invalid`, `*.localhost`;
/// and the bare `host`/`hostname` of a syntax example): what it logs into
/// is nobody's account.
fn is_local_or_example_host(url: &str) -> bool {
    let host = url_host(url).to_ascii_lowercase();
    let local = ["localhost", "127.0.0.1", "::1", "0.0.0.0", "host.docker.internal"];
    let documentation = ["host", "hostname", "example.com", "example.org", "example.net"];
    local.contains(&host.as_str())
        || documentation.contains(&host.as_str())
        || [".localhost", ".example", ".test", ".invalid", ".example.com", ".example.org", ".example.net"]
            .iter()
            .any(|suffix| host.ends_with(suffix))
}

/// A Sentry DSN (`https://<public key>[:<legacy secret>]@…sentry.io/<project>`):
/// Sentry documents the DSN as safe to ship in client code ("DSNs are safe
/// to keep public because they only allow submission of new events",
/// docs.sentry.io/concepts/key-terms/dsn-explainer/), and the legacy secret
/// part is no longer checked by Sentry. Lighthouse bundles one.
fn is_sentry_dsn(url: &str) -> bool {
    let host = url_host(url).to_ascii_lowercase();
    host == "sentry.io" || host.ends_with(".sentry.io")
}

/// Keys their owners publish for anyone to use, which gitleaks and the
/// vendors' own docs treat as no secret: each with where it is published.
const WELL_KNOWN_KEYS: &[&str] = &[
    // Azure Cosmos DB emulator's fixed account key, the same on every
    // install: learn.microsoft.com/azure/cosmos-db/emulator#authentication
    "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==",
    // Azurite (Azure Storage emulator) `devstoreaccount1` key:
    // learn.microsoft.com/azure/storage/common/storage-use-azurite#well-known-storage-account-and-key
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==",
    // Supabase CLI's local stack (`supabase start`, issuer `supabase-demo`):
    // the anon and service_role JWTs every local project prints,
    // supabase.com/docs/guides/local-development/cli/getting-started
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0",
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6InNlcnZpY2Vfcm9sZSIsImV4cCI6MTk4MzgxMjk5Nn0.EGIM96RAZx35lJzdJsyH-qQwv8Hdp7fsn3W0YpN81IU",
    // AWS's documentation example keys (gitleaks' `aws-access-token`
    // allowlist): docs.aws.amazon.com/IAM/latest/UserGuide/security-creds.html
    "AKIAIOSFODNN7EXAMPLE",
    "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    // The public Chrome UX Report key Chrome DevTools and Lighthouse ship
    // for field data ("Yes, we're aware this API key is public",
    // ChromeDevTools/chrome-devtools-mcp src/tools/performance.ts).
    "AIzaSyBn5gimNjhiEyA_euicSKko6IlD3HdgUfk",
    // Stripe's documentation test key, valid only in Stripe's docs sandbox
    // (gitleaks' `stripe-access-token` allowlist).
    "sk_test_4eC39HqLyjWDarjtT1zdp7dc",
];

/// A published, well-known key: no secret, whoever holds it.
pub(crate) fn is_well_known_key(value: &str) -> bool {
    // As written in code: `credential="…",`.
    let value = value.trim_end_matches([',', ';', ')']).trim_matches(['"', '\'', '`']);
    WELL_KNOWN_KEYS.contains(&value)
}

/// Code that reads a value rather than holding one: `os.getenv("X")`,
/// `os.environ["X"]`, `process.env.X`, a JSX or template expression
/// (`key={group}`), any call. A literal key or password is never one.
pub(crate) fn is_expression(value: &str) -> bool {
    let value = value.trim();
    value.starts_with(['{', '(', '['])
        || value.contains('(')
        || ["process.env", "environ[", "environ.get", "getenv", "import.meta.env", "Deno.env", "ENV["]
            .iter()
            .any(|read| value.contains(read))
}

/// A pattern of alternatives (`auth|unauthorized|401|invalid.*key`), as a
/// script matches error text with: three or more `|`-separated parts of
/// lowercase words, digits and regular-expression operators. Keys and
/// passwords mix cases or are hex; none of them reads as a list of words.
pub(crate) fn is_pattern(value: &str) -> bool {
    let value = value.trim_matches(['"', '\'', '`']);
    let parts: Vec<&str> = value.split('|').collect();
    let allowed = |part: &&str| {
        !part.is_empty()
            && part
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b" .*?+^$[]()\\-_".contains(&b))
    };
    let word = |part: &str| part.as_bytes().windows(3).any(|w| w.iter().all(u8::is_ascii_lowercase));
    parts.len() >= 3 && parts.iter().all(allowed) && parts.iter().filter(|part| word(part)).count() >= 2
}

fn is_jwt(word: &str) -> bool {
    let parts: Vec<&str> = word.split('.').collect();
    parts.len() == 3
        && parts[0].starts_with("eyJ")
        && parts[1].starts_with("eyJ")
        && parts[2].len() >= 10
        && parts.iter().all(|p| p.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-'))
}

/// `*TOKEN*`, `*SECRET*`, `*KEY*`, `*PASSWORD*`, `*AUTH*` (any case).
pub(crate) fn secret_name(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    ["TOKEN", "SECRET", "KEY", "PASSWORD", "PASSWD", "AUTH", "CREDENTIAL"].iter().any(|w| upper.contains(w))
}

/// `Bearer x` / `Basic x` / `token x` -> `x`.
pub(crate) fn strip_scheme(value: &str) -> &str {
    let trimmed = value.trim();
    for scheme in ["Bearer ", "Basic ", "Token ", "token ", "bearer "] {
        if let Some(rest) = trimmed.strip_prefix(scheme) {
            return rest.trim();
        }
    }
    trimmed
}

pub(crate) fn is_reference_or_placeholder(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    // Shortened for show: `123456789:AAH...`, `sk-…`.
    let shortened = value.contains("...") || value.contains('…');
    shortened
        || value.contains('$')
        || value.contains("{env:")
        || value.contains("{file:")
        || (value.starts_with('<') && value.ends_with('>'))
        || [
            "changeme",
            "change-me",
            "xxx",
            "your",
            "example",
            "placeholder",
            "sample",
            "dummy",
            "redacted",
            "***",
            "todo",
            "replace",
        ]
        .iter()
        .any(|p| lower.contains(p))
}

/// At least 40 base64 characters right after a key's header (across line
/// breaks, real or escaped as `\n` in a JSON or TOML string).
fn has_key_body(after_header: &str) -> bool {
    let mut count = 0;
    let mut rest = after_header;
    loop {
        rest = rest.trim_start_matches([' ', '\t', '\r', '\n']);
        match rest.strip_prefix("\\n") {
            Some(next) => rest = next,
            None => break,
        }
    }
    for c in rest.chars() {
        match c {
            'A'..='Z' | 'a'..='z' | '0'..='9' | '+' | '/' | '=' => count += 1,
            '\n' | '\r' => {}
            '\\' => {}
            _ => break,
        }
        if count >= 40 {
            return true;
        }
    }
    false
}

/// At least 20 characters of varied text, letters and digits, no spaces:
/// what keys and passwords look like, unlike words, paths, URLs or flags.
pub(crate) fn looks_random(value: &str) -> bool {
    let mut classes = [false; 4];
    let mut distinct = std::collections::BTreeSet::new();
    for c in value.chars() {
        if c.is_whitespace() {
            return false;
        }
        distinct.insert(c);
        let class = if c.is_ascii_lowercase() {
            0
        } else if c.is_ascii_uppercase() {
            1
        } else if c.is_ascii_digit() {
            2
        } else {
            3
        };
        classes[class] = true;
    }
    let letters = classes[0] || classes[1];
    let path_or_url = value.starts_with(['/', '.', '~']) || value.contains("://");
    value.chars().count() >= 20 && distinct.len() >= 10 && letters && classes[2] && !path_or_url
}

/// What a source file is to the plugin, for a literal credential in it:
/// something that runs or configures (refused), or text a person reads or a
/// test feeds itself (a warning, unless the source asks for strict).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Surface {
    /// Manifests, MCP and hook configuration, settings, scripts, `bin/`,
    /// any code and data file, and the frontmatter of a Markdown file.
    Configuration,
    /// The body of a Markdown, reStructuredText or AsciiDoc file: skills,
    /// commands, agents, references, READMEs.
    Prose,
    /// A test or its fixtures.
    Test,
}

/// Folders whose files are tests or their fixtures.
const TEST_FOLDERS: &[&str] = &[
    "test",
    "tests",
    "__tests__",
    "spec",
    "specs",
    "__mocks__",
    "fixtures",
    "__fixtures__",
    "testdata",
    "test-data",
    "test_data",
    "e2e",
];

impl Surface {
    /// The surface of `path` (relative to the source root), for a line
    /// inside (`in_frontmatter`) or outside a Markdown file's frontmatter.
    ///
    /// Tests: a file under `test/`, `tests/`, `__tests__/`, `spec/`,
    /// `fixtures/`, `testdata/` (and their spellings in [`TEST_FOLDERS`]),
    /// or named `*_test.*`, `*.test.*`, `*.spec.*`, `test_*.py`, `*_spec.rb`.
    pub(crate) fn of(path: &str, in_frontmatter: bool) -> Surface {
        let (folders, name) = path.rsplit_once('/').unwrap_or(("", path));
        let lower = name.to_ascii_lowercase();
        let test_folder =
            folders.split('/').any(|folder| TEST_FOLDERS.contains(&folder.to_ascii_lowercase().as_str()));
        let stem = lower.split('.').next().unwrap_or(&lower);
        let test_name = lower.contains(".test.")
            || lower.contains(".spec.")
            || stem.ends_with("_test")
            || stem.ends_with("_spec")
            || (stem.starts_with("test_") && lower.ends_with(".py"));
        if test_folder || test_name {
            return Surface::Test;
        }
        let prose =
            [".md", ".mdx", ".markdown", ".mdc", ".rst", ".adoc"].iter().any(|ext| lower.ends_with(ext));
        if prose && !in_frontmatter { Surface::Prose } else { Surface::Configuration }
    }

    /// How a warning names where the credential is.
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Surface::Configuration => "configuration",
            Surface::Prose => "documentation",
            Surface::Test => "a test file",
        }
    }
}

/// The last line (1-based) of a Markdown file's frontmatter, when it opens
/// with one: lines up to it configure, lines after it are prose.
pub(crate) fn frontmatter_end(text: &str) -> Option<usize> {
    let mut lines = text.lines();
    if lines.next().map(str::trim_end) != Some("---") {
        return None;
    }
    lines.position(|line| line.trim_end() == "---").map(|index| index + 2)
}

/// `NAME=value` shell assignments (also after `export`), values unquoted.
pub(crate) fn assignments(command: &str) -> Vec<(&str, &str)> {
    if !command.as_bytes().contains(&b'=') {
        return Vec::new();
    }
    command
        .split_whitespace()
        .filter_map(|word| word.split_once('='))
        .filter(|(name, _)| !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
        .map(|(name, value)| (name, value.trim_matches(|c| c == '"' || c == '\'')))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`words`] as the plain split it must equal.
    fn words_by_chars(text: &str) -> Vec<String> {
        text.split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
            .map(|w| w.trim_end_matches('.').to_string())
            .filter(|w| w.len() >= 16)
            .collect()
    }

    proptest::proptest! {
        /// The probing scan skips bytes: on texts where runs of every length
        /// around 16 are common, it still finds exactly the split's words.
        #[test]
        fn words_equal_the_split_on_any_text(text in "([a-b0-9._\\-]{0,24}[ é\n=]{1,2}){0,8}[a-b0-9.]{0,20}") {
            proptest::prop_assert_eq!(words(&text).collect::<Vec<_>>(), words_by_chars(&text));
        }
    }

    #[test]
    fn words_are_the_runs_of_token_characters() {
        let by_chars = words_by_chars;
        for text in [
            "",
            "key=ghp_0123456789abcdefghijABCDEFGHIJ012345.",
            "é0123456789abcdefé0123456789abcdefg…x_y-z.0123456789abcdef...",
            "\u{feff}AKIAIOSFODNN7EXAMPLE\tsk-ant-api03-abcdefghij0123456789 short",
            "................................ 0123456789abcdef",
        ] {
            assert_eq!(words(text).collect::<Vec<_>>(), by_chars(text), "{text:?}");
        }
    }

    #[test]
    fn recognises_known_token_shapes() {
        let cases = [
            ("ghp_0123456789abcdefghijABCDEFGHIJ012345", "GitHub token"),
            ("github_pat_11ABCDEFG0123456789_abcdefghijkl", "GitHub token"),
            ("sk-ant-api03-abcdefghij0123456789", "Anthropic API key"),
            ("sk-proj-abcdefghij0123456789XYZ", "OpenAI API key"),
            ("sk-abcdefghij0123456789XYZ", "OpenAI-style API key"),
            ("xoxb-1234567890-abcdefghij", "Slack token"),
            ("AKIAIOSFODNN7EXAMPLE", "AWS access key id"),
            ("AIzaSyA-0123456789abcdefghijklmnopqrstu", "Google API key"),
            ("glpat-abcdefghij0123456789", "GitLab token"),
            ("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abcdefghijklmnop", "JSON Web Token"),
            ("xapp-1-A0123456789-0123456789012-abcdef", "Slack app token"),
            ("sk_live_4eC39HqLyjWDarjtT1zdp7dc", "Stripe key"),
            ("rk_test_4eC39HqLyjWDarjtT1zdp7dc", "Stripe key"),
            ("npm_abcdefghijklmnopqrstuvwxyz0123456789", "npm token"),
            ("pypi-AgEIcHlwaS5vcmcCJDAwMDAwMDAwLTAwMDAtMDAwMC0wMDAwLTAwMDAwMDAwMDAwMAACKlsz", "PyPI token"),
            ("hf_abcdefghijklmnopqrstuvwxyzABCDEFGH", "Hugging Face token"),
            ("hf_aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC2dF4h", "Hugging Face token"),
            ("shpat_0123456789abcdef0123456789abcdef", "Shopify token"),
            ("dop_v1_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "DigitalOcean token"),
            ("dapi0123456789abcdef0123456789abcdef", "Databricks token"),
            ("lin_api_abcdefghij0123456789abcdefghij0123456789", "Linear API key"),
            ("NRAK-ABCDEFGHIJ0123456789ABCDEFG", "New Relic key"),
            ("SG.abcdefghij0123456789AB.abcdefghij0123456789abcdefghij0123456789abc", "SendGrid API key"),
            ("glptt-0123456789abcdef0123456789abcdef01234567", "GitLab token"),
            ("ASIAIOSFODNN7EXAMPLE", "AWS access key id"),
            ("SK0123456789abcdef0123456789abcdef", "Twilio API key"),
            ("AGE-SECRET-KEY-1QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ", "age secret key"),
        ];
        for (token, kind) in cases {
            assert_eq!(token_shapes(&format!("--token={token} x")), [(kind, token)], "{token}");
        }
        let key = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\n";
        assert_eq!(token_shapes(key)[0].0, "private key");
        let escaped =
            r"-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj";
        assert_eq!(token_shapes(escaped)[0].0, "private key");
        for prose in [
            "private keys (`-----BEGIN RSA PRIVATE KEY-----`), and connection strings",
            "tls.key: |\n    -----BEGIN PRIVATE KEY-----\n    ...\n    -----END PRIVATE KEY-----\n",
        ] {
            assert!(token_shapes(prose).is_empty(), "{prose:?}");
        }
        assert_eq!(
            token_shapes("postgres://app:s3cretPass@db:5432/x"),
            [("password in a URL", "s3cretPass")]
        );
        assert!(token_shapes("postgres://app:${DB_PASSWORD}@db/x").is_empty());
        assert!(token_shapes("postgresql://user:password@localhost/db").is_empty());
        assert!(token_shapes(r#"const apiKey = "sk_live_123abc456def789ghi";"#).is_empty());
        let hook = "https://hooks.slack.com/services/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";
        assert_eq!(
            token_shapes(&format!("curl -X POST {hook} -d x")),
            [("Slack webhook URL", &hook["https://".len()..])]
        );
        assert!(
            token_shapes("https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX")
                .is_empty()
        );
    }

    #[test]
    fn finds_private_keys_across_lines_and_not_quoted_headers() {
        let body = "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\nVTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK\n";
        let pem = format!("notes\n-----BEGIN RSA PRIVATE KEY-----\n{body}-----END RSA PRIVATE KEY-----\n");
        assert_eq!(private_keys(&pem), [(6, "-----BEGIN RSA PRIVATE KEY-----")]);
        let openssh = format!("-----BEGIN OPENSSH PRIVATE KEY-----\r\n{}", body.replace('\n', "\r\n"));
        assert_eq!(private_keys(&openssh), [(0, "-----BEGIN OPENSSH PRIVATE KEY-----")]);
        let pgp =
            format!("-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: GnuPG v2\nComment: mine\n\n{body}");
        assert_eq!(private_keys(&pgp), [(0, "-----BEGIN PGP PRIVATE KEY BLOCK-----")]);
        for not_a_key in [
            format!("-----BEGIN PUBLIC KEY-----\n{body}"),
            "-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----\n".to_string(),
            "Keys start with `-----BEGIN PRIVATE KEY-----`.\n".to_string(),
        ] {
            assert!(private_keys(&not_a_key).is_empty(), "{not_a_key}");
        }
    }

    #[test]
    fn ignores_ordinary_words_paths_and_references() {
        for text in [
            "sk-learn-classifier-model-v",
            "${GITHUB_TOKEN}",
            "/usr/local/bin/some-long-tool-name",
            "AKIA_NOT_A_KEY",
        ] {
            assert!(token_shapes(text).is_empty(), "{text}");
        }
    }

    #[test]
    fn literal_credentials_need_a_secret_name_and_a_random_value() {
        assert!(secret_name("API_KEY") && secret_name("Authorization") && secret_name("db_password"));
        assert!(!secret_name("LOG_LEVEL"));
        assert!(looks_random("q8Zt3vN1xK9pL2mR7sW4"));
        // nyldn/claude-octopus, scripts/lib/smoke.sh: a bash pattern named `_re_auth`.
        assert!(is_pattern("'auth|unauthorized|forbidden|401|403|invalid.*key|expired.*token|login"));
        assert!(!is_pattern("q8Zt3vN1xK9pL2mR7sW4"));
        assert!(!is_pattern("Xq8|Zt3vN1xK9p|L2mR7sW4"));
        assert!(!looks_random("short1"));
        assert!(!looks_random("a very long value with spaces 123"));
        assert!(!looks_random("aaaaaaaaaaaaaaaaaaaaaaaa1"));
        assert!(!looks_random("us-international-variant"));
        assert!(!looks_random("/home/user/.ssh/id_ed25519_work"));
        assert!(looks_random("3f9a0c7e5b1d2468ace013579bdf"));
        assert!(is_reference_or_placeholder("${API_KEY}"));
        assert!(is_reference_or_placeholder("<your-token>"));
        assert!(is_reference_or_placeholder("changeme-changeme-123456"));
        assert_eq!(strip_scheme("Bearer abc"), "abc");
    }

    #[test]
    fn reads_shell_assignments() {
        assert_eq!(assignments("API_KEY=\"abc\" run --x=1"), [("API_KEY", "abc")]);
        assert_eq!(preview("ghp_secretvalue"), "ghp_…");
    }
}

//! The registry: one line per runtime, and the engine's typed vocabulary.
//!
//! A line reads `Variant => folder as "id"`: the runtime's [`Runtime`]
//! variant, its folder `core/src/runtime/<folder>/` (whose `SPEC` says what
//! the runtime is and does) and its id, what users type (`--target codex`)
//! and every result carries. The codes of the rules only that runtime's
//! format has follow in braces, each a [`RuntimeRule`] variant. The order is
//! the order of `--target all` and of every listing.
//!
//! The list lives below everything that carries a runtime id (findings,
//! honesty rows, bundles), so those are typed; `core/src/runtime/mod.rs`
//! expands the same list into the folders' modules and their specs.

/// The runtimes: `$then! { Variant => folder as "id" { Rule = "code", ... }, ... }`.
macro_rules! registry {
    ($then:ident) => {
        $then! {
            ClaudeCode => claude_code as "claude-code",
            Codex => codex as "codex" {
                ExtraFileInManifestFolder = "manifest/extra-file-in-manifest-folder",
            },
            Gemini => gemini as "gemini",
            Cursor => cursor as "cursor",
            OpenCode => opencode as "opencode",
            AgentPlugins => agent_plugins as "agent-plugins",
            OpenClaw => openclaw as "openclaw",
            Hermes => hermes as "hermes" {
                MissingInit = "registration/missing-init",
                UnregisteredSkill = "registration/unregistered-skill",
                RegistrationRaises = "registration/raises",
                RegistrationNotChecked = "registration/not-checked",
            },
            Copilot => copilot as "copilot",
            Antigravity => antigravity as "antigravity",
            QwenCode => qwen_code as "qwen-code",
            Generic => generic as "generic",
            Universal => universal as "universal",
        }
    };
}
pub(crate) use registry;

/// What a type spelled by its `as_str` gets: `Display`, `String::from`,
/// comparison with a string, and `Serialize` as that string.
macro_rules! spelled_by_as_str {
    ($name:ident) => {
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl From<$name> for String {
            fn from(value: $name) -> String {
                value.as_str().to_string()
            }
        }

        impl PartialEq<str> for $name {
            fn eq(&self, text: &str) -> bool {
                self.as_str() == text
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, text: &&str) -> bool {
                self.as_str() == *text
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }
    };
}
pub(crate) use spelled_by_as_str;

/// A closed set of strings as an enum: each variant serializes to its
/// string, and its TypeScript type (named by the string after `as`) is the
/// union of them.
macro_rules! words {
    (
        $(#[doc = $doc:literal])*
        $vis:vis enum $name:ident as $ts:literal {
            $($(#[doc = $variant_doc:literal])* $variant:ident = $text:literal,)*
        }
    ) => {
        $(#[doc = $doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        $vis enum $name {
            $($(#[doc = $variant_doc])* $variant,)*
        }

        impl $name {
            /// Every value, in the order declared.
            pub const ALL: &'static [$name] = &[$($name::$variant,)*];

            /// Its string, as results carry it.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)*
                }
            }

            /// The value spelled `text`.
            pub fn spelled(text: &str) -> Option<$name> {
                $name::ALL.iter().copied().find(|value| value.as_str() == text)
            }
        }

        $crate::registry::spelled_by_as_str!($name);

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<$name, D::Error> {
                let text = <std::borrow::Cow<'de, str> as serde::Deserialize>::deserialize(deserializer)?;
                $name::spelled(&text).ok_or_else(|| {
                    let known: Vec<&str> = $name::ALL.iter().map(|value| value.as_str()).collect();
                    serde::de::Error::custom(format!("unknown {} {text:?}; known: {}", $ts, known.join(", ")))
                })
            }
        }

        #[cfg(feature = "typescript")]
        impl ts_rs::TS for $name {
            type WithoutGenerics = Self;
            type OptionInnerType = Self;

            fn docs() -> Option<String> {
                Some(ts_rs::format_docs(&[$($doc),*])).filter(|docs| !docs.is_empty())
            }

            fn name(_: &ts_rs::Config) -> String {
                $ts.to_string()
            }

            fn inline(_: &ts_rs::Config) -> String {
                let texts: &[&str] = &[$($text),*];
                match texts {
                    [] => "never".to_string(),
                    _ => texts.iter().map(|text| format!("{text:?}")).collect::<Vec<_>>().join(" | "),
                }
            }

            fn decl(config: &ts_rs::Config) -> String {
                format!("type {} = {};", $ts, <$name as ts_rs::TS>::inline(config))
            }

            fn decl_concrete(config: &ts_rs::Config) -> String {
                <$name as ts_rs::TS>::decl(config)
            }
        }
    };
}
pub(crate) use words;

/// The runtime enum and the runtimes' own rule codes, from the registry.
macro_rules! vocabulary {
    ($(
        $variant:ident => $folder:ident as $id:literal $({ $($rule:ident = $code:literal,)* })?,
    )*) => {
        words! {
            /// A runtime the core writes for, by its id.
            pub enum Runtime as "RuntimeId" {
                $($variant = $id,)*
            }
        }

        words! {
            /// The code of a rule only one runtime's format has (its line
            /// of the registry lists them).
            pub enum RuntimeRule as "RuntimeRuleCode" {
                $($($($rule = $code,)*)?)*
            }
        }

        impl RuntimeRule {
            /// The runtime whose format has the rule.
            pub fn runtime(self) -> Runtime {
                match self {
                    $($($(RuntimeRule::$rule => Runtime::$variant,)*)?)*
                }
            }
        }
    };
}

registry!(vocabulary);

impl Runtime {
    /// The id users type (`--target codex`) and results carry.
    pub const fn id(self) -> &'static str {
        self.as_str()
    }

    /// The runtime whose id is `id`.
    pub fn parse(id: &str) -> crate::error::Result<Runtime> {
        Runtime::spelled(id).ok_or_else(|| {
            let known: Vec<&str> = Runtime::ALL.iter().map(|r| r.id()).collect();
            crate::error::Error::new(
                crate::error::ErrorCode::UnsupportedRuntime,
                format!("unknown runtime {id:?}; known: {}", known.join(", ")),
            )
        })
    }
}

words! {
    /// An artifact kind: the shape of bundle a runtime's kind writes
    /// (`--target codex:project`).
    pub enum ArtifactKind as "ArtifactKind" {
        /// A plugin folder the runtime installs.
        Plugin = "plugin",
        /// Files written straight into a project (or home) folder.
        Project = "project",
        /// A Gemini CLI extension.
        Extension = "extension",
        /// A Markdown guide people follow.
        Guide = "guide",
        /// A plugin that registers skills from code.
        SkillPlugin = "skill-plugin",
        /// A bundle another runtime's plugin format carries.
        CompatibleBundle = "compatible-bundle",
        /// A runtime's workspace, whose own folders it loads skills from.
        Workspace = "workspace",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_kebab_case_and_parse_back() {
        let mut seen = std::collections::BTreeSet::new();
        for runtime in Runtime::ALL {
            assert!(seen.insert(runtime.id()), "{} listed twice", runtime.id());
            let kebab = runtime.id().split('-').all(|part| {
                !part.is_empty() && part.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
            });
            assert!(kebab, "{}: kebab-case", runtime.id());
            assert_eq!(Runtime::parse(runtime.id()).unwrap(), *runtime);
        }
        let error = Runtime::parse("nope").unwrap_err();
        assert_eq!(error.code, crate::error::ErrorCode::UnsupportedRuntime);
        assert!(
            error.message().starts_with("unknown runtime \"nope\"; known: claude-code, codex"),
            "{error}"
        );
    }

    #[test]
    fn a_value_serializes_to_its_string() {
        assert_eq!(serde_json::to_value(Runtime::AgentPlugins).unwrap(), "agent-plugins");
        assert_eq!(serde_json::to_value(ArtifactKind::SkillPlugin).unwrap(), "skill-plugin");
        for rule in RuntimeRule::ALL {
            assert_eq!(serde_json::to_value(rule).unwrap(), rule.as_str());
        }
    }
}

//! No import circle among the top-level modules of `core/src`, and the
//! layers `core/src/lib.rs` lists hold.
//!
//! The graph: its nodes are the top-level modules of `core/src` (`build`,
//! `bundle`, `validate`, `runtime`, ...): each file `core/src/x.rs` or folder
//! `core/src/x/` is one node; `lib.rs` is the root and not a node. An edge
//! A -> B exists when any non-test code in A names B: `use crate::B...`,
//! `crate::B::...` in a path anywhere (macro arguments included), a
//! `crate::{B, ...}` group, a `super::...` path that resolves to B (for
//! example `super::B` from a top-level file), or `crate::Name` where lib.rs
//! re-exports `Name` from B. Items under `#[cfg(test)]` (`mod tests` among
//! them) and the files of test-only modules are left out: tests may reach
//! anywhere. The graph must be acyclic.
//!
//! Every `core/src/**/*.rs` is parsed with `syn`, following the `mod`
//! declarations from `lib.rs` (and the runtime registry's lines in
//! `registry.rs`, each of which declares its runtime's folder where
//! `runtime/mod.rs` expands them; a file no declaration reaches fails the test,
//! so none is skipped silently). A cycle fails the test, listed with the
//! file and line of every edge in it, and the layer order of the graph.
//! The layers lib.rs lists (`//! N. \`a\`, \`b\`: ...`, bottom first) must
//! hold too: every module in one, no edge to a higher layer.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use syn::punctuated::Punctuated;
use syn::visit::{self, Visit};
use syn::{Attribute, ImplItem, Item, Meta, TraitItem, UseTree};

/// Where a module names another: file (relative to `core/src`) and line.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Site {
    file: String,
    line: usize,
}

/// The module graph: every node, and for each edge the sites that make it.
#[derive(Debug, Default)]
struct Graph {
    nodes: BTreeSet<String>,
    edges: BTreeMap<String, BTreeMap<String, Vec<Site>>>,
    /// The names `lib.rs` re-exports (`pub use build::PreparedBuild`), each
    /// with the module it comes from: `crate::PreparedBuild` names `build`.
    reexports: BTreeMap<String, String>,
}

/// Builds the graph from the crate's files, keyed by their path relative to
/// `src/` (`lib.rs`, `validate/mod.rs`, ...), following `mod` declarations
/// from `lib.rs`. Errors name a file no declaration reaches, a declared
/// module with no file, or a file that does not parse.
fn build_graph(files: &BTreeMap<String, String>) -> Result<Graph, String> {
    let mut walk = Walk { files, graph: Graph::default(), reached: BTreeSet::new(), errors: Vec::new() };
    walk.file("lib.rs", &[], false);
    for file in files.keys() {
        if !walk.reached.contains(file) {
            walk.errors.push(format!("{file}: no `mod` declaration reaches it"));
        }
    }
    if !walk.errors.is_empty() {
        return Err(walk.errors.join("\n"));
    }
    // `crate::Name` where `Name` is a root re-export names the module it
    // comes from; a name that is neither a module nor a re-export (a macro,
    // an item of lib.rs itself) names no module.
    let mut graph = walk.graph;
    for targets in graph.edges.values_mut() {
        let named = std::mem::take(targets);
        for (target, sites) in named {
            let node = match graph.reexports.get(&target) {
                Some(module) if !graph.nodes.contains(&target) => module.clone(),
                _ => target,
            };
            if graph.nodes.contains(&node) {
                let merged = targets.entry(node).or_default();
                merged.extend(sites);
                merged.sort();
                merged.dedup();
            }
        }
    }
    for (from, targets) in &mut graph.edges {
        targets.remove(from);
    }
    graph.edges.retain(|_, targets| !targets.is_empty());
    Ok(graph)
}

struct Walk<'a> {
    files: &'a BTreeMap<String, String>,
    graph: Graph,
    reached: BTreeSet<String>,
    errors: Vec<String>,
}

impl Walk<'_> {
    /// Parses `file`, the module at `module` (empty for the crate root).
    fn file(&mut self, file: &str, module: &[String], test: bool) {
        self.reached.insert(file.to_string());
        let Some(text) = self.files.get(file) else {
            self.errors.push(format!("{file}: declared but missing"));
            return;
        };
        let parsed = match syn::parse_file(text) {
            Ok(parsed) => parsed,
            Err(e) => {
                self.errors.push(format!("{file}: does not parse: {e}"));
                return;
            }
        };
        if !test && let Some(node) = module.first() {
            self.graph.nodes.insert(node.clone());
        }
        // Where this file's `mod x;` declarations live: `lib.rs` and
        // `mod.rs` own their folder, `a/b.rs` owns `a/b/`.
        let dir = match file.rsplit_once('/') {
            _ if file == "lib.rs" => String::new(),
            Some((dir, "mod.rs")) => format!("{dir}/"),
            _ => format!("{}/", file.trim_end_matches(".rs")),
        };
        let mut names = Names {
            files: self.files,
            file,
            dir,
            module: module.to_vec(),
            test,
            found: Vec::new(),
            declared: Vec::new(),
            reexports: Vec::new(),
        };
        names.visit_file(&parsed);
        let (found, declared) = (names.found, names.declared);
        if module.is_empty() {
            self.graph.reexports.extend(names.reexports);
        }
        if !test && let Some(node) = module.first() {
            for (target, site) in found {
                if &target != node {
                    let sites = self.graph.edges.entry(node.clone()).or_default().entry(target).or_default();
                    if !sites.contains(&site) {
                        sites.push(site);
                    }
                }
            }
        }
        for (child_file, child_module, child_test) in declared {
            self.file(&child_file, &child_module, child_test);
        }
    }
}

/// Collects, from one file, every module path its code names and every
/// out-of-line `mod x;` it declares.
struct Names<'a> {
    /// Every file of the crate, to tell `x/mod.rs` from `x.rs`.
    files: &'a BTreeMap<String, String>,
    file: &'a str,
    /// The folder this file's `mod x;` declarations resolve in (with inline
    /// modules appended as they are entered).
    dir: String,
    /// The module the visitor is in: the file's, then inline modules.
    module: Vec<String>,
    /// Inside test-only code: nothing found there counts.
    test: bool,
    /// (top-level module named, where).
    found: Vec<(String, Site)>,
    /// (file, module path, test-only) of each `mod x;`.
    declared: Vec<(String, Vec<String>, bool)>,
    /// At the crate root: (name, module) of each `use module::...::name`.
    reexports: Vec<(String, String)>,
}

impl Names<'_> {
    fn site(&self, span: proc_macro2::Span) -> Site {
        Site { file: self.file.to_string(), line: span.start().line }
    }

    /// Records the top-level module a path resolves to, when it starts at
    /// `crate` or climbs with `super` (`self` stays in this module).
    fn resolve(&mut self, segments: &[String], span: proc_macro2::Span) {
        if self.test {
            return;
        }
        let mut module = self.module.clone();
        let mut rest = segments;
        match rest.first().map(String::as_str) {
            Some("crate") => {
                module.clear();
                rest = &rest[1..];
            }
            Some("super") => {
                while rest.first().is_some_and(|s| s == "super") {
                    module.pop();
                    rest = &rest[1..];
                }
            }
            _ => return,
        }
        let top = module.first().or(rest.first());
        if let Some(top) = top.filter(|t| *t != "self" && *t != "*") {
            let site = self.site(span);
            self.found.push((top.clone(), site));
        }
    }

    /// Walks a `use` tree, resolving each leaf's full path.
    fn use_tree(&mut self, tree: &UseTree, prefix: &mut Vec<String>) {
        match tree {
            UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(&p.tree, prefix);
                prefix.pop();
            }
            UseTree::Name(n) => {
                self.reexport(prefix, &n.ident.to_string());
                self.use_leaf(prefix, &n.ident.to_string(), n.ident.span());
            }
            UseTree::Rename(r) => {
                self.reexport(prefix, &r.rename.to_string());
                self.use_leaf(prefix, &r.ident.to_string(), r.ident.span());
            }
            UseTree::Glob(g) => self.use_leaf(prefix, "*", g.star_token.span),
            UseTree::Group(g) => {
                for tree in &g.items {
                    self.use_tree(tree, prefix);
                }
            }
        }
    }

    /// At the crate root, `use build::{PreparedBuild}` (or
    /// `crate::build::...`) makes `crate::PreparedBuild` name `build`.
    fn reexport(&mut self, prefix: &[String], name: &str) {
        let path = prefix.strip_prefix(&["crate".to_string()]).unwrap_or(prefix);
        if self.module.is_empty()
            && !self.test
            && let Some(module) = path.first()
        {
            self.reexports.push((name.to_string(), module.clone()));
        }
    }

    fn use_leaf(&mut self, prefix: &[String], leaf: &str, span: proc_macro2::Span) {
        let mut path = prefix.to_vec();
        path.push(leaf.to_string());
        self.resolve(&path, span);
    }

    /// Runs `f` with test-only code marked as such.
    fn scoped(&mut self, attrs: &[Attribute], f: impl FnOnce(&mut Self)) {
        let was = self.test;
        self.test |= is_test_only(attrs);
        f(self);
        self.test = was;
    }
}

impl<'ast> Visit<'ast> for Names<'_> {
    fn visit_item(&mut self, item: &'ast Item) {
        let attrs = item_attrs(item);
        self.scoped(attrs, |this| visit::visit_item(this, item));
    }

    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        let name = item.ident.to_string();
        let was = self.test;
        self.test |= name == "tests";
        match &item.content {
            None => {
                let base = format!("{}{name}", self.dir);
                let folder = format!("{base}/mod.rs");
                let file = if self.files.contains_key(&folder) { folder } else { format!("{base}.rs") };
                let mut module = self.module.clone();
                module.push(name);
                self.declared.push((file, module, self.test));
            }
            Some(_) => {
                let dir = self.dir.clone();
                self.dir = format!("{dir}{name}/");
                self.module.push(name);
                visit::visit_item_mod(self, item);
                self.module.pop();
                self.dir = dir;
            }
        }
        self.test = was;
    }

    fn visit_impl_item(&mut self, item: &'ast ImplItem) {
        let attrs: &[Attribute] = match item {
            ImplItem::Const(i) => &i.attrs,
            ImplItem::Fn(i) => &i.attrs,
            ImplItem::Type(i) => &i.attrs,
            ImplItem::Macro(i) => &i.attrs,
            _ => &[],
        };
        self.scoped(attrs, |this| visit::visit_impl_item(this, item));
    }

    fn visit_trait_item(&mut self, item: &'ast TraitItem) {
        let attrs: &[Attribute] = match item {
            TraitItem::Const(i) => &i.attrs,
            TraitItem::Fn(i) => &i.attrs,
            TraitItem::Type(i) => &i.attrs,
            TraitItem::Macro(i) => &i.attrs,
            _ => &[],
        };
        self.scoped(attrs, |this| visit::visit_trait_item(this, item));
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        self.use_tree(&item.tree, &mut Vec::new());
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        if let Some(first) = path.segments.first() {
            self.resolve(&segments, first.ident.span());
        }
        visit::visit_path(self, path);
    }

    /// Macro arguments are tokens, not syntax: every `crate::x` or
    /// `super::x` run in them counts.
    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        if mac.path.segments.last().is_some_and(|segment| segment.ident == "registry") {
            // `runtime/mod.rs` expands the registry's lines (`registry.rs`)
            // into its folders' modules with its own macro, `folders`.
            if mac.tokens.to_string() == "folders" {
                let lines = self.files.get("registry.rs").and_then(|text| text.parse().ok());
                self.registry(lines.unwrap_or_default());
            }
        }
        self.macro_tokens(mac.tokens.clone());
        visit::visit_macro(self, mac);
    }

    /// Doc comments name no module (a doc link is not code); other
    /// attributes do, as paths (`#[path::attr]`, tokens in a list) or as
    /// strings (`#[serde(with = "crate::x")]`). `cfg` is read where the item
    /// is visited.
    fn visit_attribute(&mut self, attr: &'ast Attribute) {
        if attr.path().is_ident("doc") {
            return;
        }
        visit::visit_attribute(self, attr);
        if let Meta::List(list) = &attr.meta {
            self.attribute_strings(list.tokens.clone());
        }
    }

    fn visit_meta_list(&mut self, list: &'ast syn::MetaList) {
        self.macro_tokens(list.tokens.clone());
        visit::visit_meta_list(self, list);
    }
}

impl Names<'_> {
    /// The runtime registry (`Variant => folder as "id"` lines in
    /// `registry.rs`, at any depth of its tokens) declares `mod folder;` for
    /// each line.
    fn registry(&mut self, tokens: proc_macro2::TokenStream) {
        use proc_macro2::TokenTree;
        fn flat(tokens: proc_macro2::TokenStream, out: &mut Vec<TokenTree>) {
            for tree in tokens {
                match tree {
                    TokenTree::Group(group) => flat(group.stream(), out),
                    other => out.push(other),
                }
            }
        }
        let mut trees = Vec::new();
        flat(tokens, &mut trees);
        for window in trees.windows(4) {
            let arrow = matches!((&window[0], &window[1]), (TokenTree::Punct(a), TokenTree::Punct(b)) if a.as_char() == '=' && b.as_char() == '>');
            let named = matches!(&window[3], TokenTree::Ident(word) if word == "as");
            if let (true, true, TokenTree::Ident(folder)) = (arrow, named, &window[2]) {
                let name = folder.to_string();
                let base = format!("{}{name}", self.dir);
                let folder_file = format!("{base}/mod.rs");
                let file =
                    if self.files.contains_key(&folder_file) { folder_file } else { format!("{base}.rs") };
                let mut module = self.module.clone();
                module.push(name);
                self.declared.push((file, module, self.test));
            }
        }
    }

    fn macro_tokens(&mut self, tokens: proc_macro2::TokenStream) {
        use proc_macro2::TokenTree;
        let trees: Vec<TokenTree> = tokens.into_iter().collect();
        let mut i = 0;
        while i < trees.len() {
            match &trees[i] {
                TokenTree::Group(g) => self.macro_tokens(g.stream()),
                TokenTree::Ident(id) if id == "crate" || id == "super" => {
                    // Take `ident (:: ident)*` from here.
                    let mut path = vec![id.to_string()];
                    let span = id.span();
                    let mut j = i + 1;
                    while j + 2 < trees.len() && is_colon(&trees[j]) && is_colon(&trees[j + 1]) {
                        match &trees[j + 2] {
                            TokenTree::Ident(next) => path.push(next.to_string()),
                            _ => break,
                        }
                        j += 3;
                    }
                    if path.len() > 1 {
                        self.resolve(&path, span);
                    }
                    i = j.max(i + 1);
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
    }
}

impl Names<'_> {
    /// Paths written as strings in attribute arguments.
    fn attribute_strings(&mut self, tokens: proc_macro2::TokenStream) {
        for tree in tokens {
            match tree {
                proc_macro2::TokenTree::Group(g) => self.attribute_strings(g.stream()),
                proc_macro2::TokenTree::Literal(literal) => {
                    let tree = proc_macro2::TokenTree::Literal(literal.clone());
                    let Ok(syn::Lit::Str(text)) = syn::parse2::<syn::Lit>(tree.into()) else { continue };
                    if let Ok(path) = text.parse::<syn::Path>() {
                        let segments: Vec<String> =
                            path.segments.iter().map(|s| s.ident.to_string()).collect();
                        self.resolve(&segments, literal.span());
                    }
                }
                _ => {}
            }
        }
    }
}

fn is_colon(tree: &proc_macro2::TokenTree) -> bool {
    matches!(tree, proc_macro2::TokenTree::Punct(p) if p.as_char() == ':')
}

fn item_attrs(item: &Item) -> &[Attribute] {
    match item {
        Item::Const(i) => &i.attrs,
        Item::Enum(i) => &i.attrs,
        Item::ExternCrate(i) => &i.attrs,
        Item::Fn(i) => &i.attrs,
        Item::ForeignMod(i) => &i.attrs,
        Item::Impl(i) => &i.attrs,
        Item::Macro(i) => &i.attrs,
        Item::Mod(i) => &i.attrs,
        Item::Static(i) => &i.attrs,
        Item::Struct(i) => &i.attrs,
        Item::Trait(i) => &i.attrs,
        Item::TraitAlias(i) => &i.attrs,
        Item::Type(i) => &i.attrs,
        Item::Union(i) => &i.attrs,
        Item::Use(i) => &i.attrs,
        _ => &[],
    }
}

/// `#[cfg(test)]`, or `#[cfg(all(test, ...))]`: compiled only for tests.
fn is_test_only(attrs: &[Attribute]) -> bool {
    fn test_only(meta: &Meta) -> bool {
        match meta {
            Meta::Path(path) => path.is_ident("test"),
            Meta::List(list) if list.path.is_ident("all") => list
                .parse_args_with(Punctuated::<Meta, syn::Token![,]>::parse_terminated)
                .is_ok_and(|metas| metas.iter().any(test_only)),
            _ => false,
        }
    }
    attrs.iter().any(|attr| match &attr.meta {
        Meta::List(list) if list.path.is_ident("cfg") => {
            list.parse_args::<Meta>().is_ok_and(|m| test_only(&m))
        }
        _ => false,
    })
}

/// The strongly connected components with more than one node (the cycles),
/// each sorted, by Tarjan's algorithm.
fn cycles(graph: &Graph) -> Vec<Vec<String>> {
    strongly_connected(graph).into_iter().filter(|c| c.len() > 1).collect()
}

fn strongly_connected(graph: &Graph) -> Vec<Vec<String>> {
    struct Tarjan<'a> {
        graph: &'a Graph,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        components: Vec<Vec<String>>,
    }
    impl<'a> Tarjan<'a> {
        fn visit(&mut self, v: &'a str) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            self.on_stack.insert(v);
            for w in self.graph.edges.get(v).into_iter().flat_map(|e| e.keys()) {
                let w = w.as_str();
                if !self.graph.nodes.contains(w) {
                    continue;
                }
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w]);
                    self.low.insert(v, low);
                } else if self.on_stack.contains(w) {
                    let low = self.low[v].min(self.index[w]);
                    self.low.insert(v, low);
                }
            }
            if self.low[v] == self.index[v] {
                let mut component = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack.remove(w);
                    component.push(w.to_string());
                    if w == v {
                        break;
                    }
                }
                component.sort();
                self.components.push(component);
            }
        }
    }
    let mut tarjan = Tarjan {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        components: Vec::new(),
    };
    for node in &graph.nodes {
        if !tarjan.index.contains_key(node.as_str()) {
            tarjan.visit(node);
        }
    }
    tarjan.components
}

/// The layers, bottom first: a component's layer is one above the highest
/// layer it depends on (a cycle counts as one `{a, b}` component).
fn layers(graph: &Graph) -> Vec<Vec<String>> {
    let components = strongly_connected(graph);
    let of: BTreeMap<&str, usize> =
        components.iter().enumerate().flat_map(|(i, c)| c.iter().map(move |n| (n.as_str(), i))).collect();
    // Tarjan emits a component after every component it reaches.
    let mut level = vec![0usize; components.len()];
    for (i, component) in components.iter().enumerate() {
        for node in component {
            for target in graph.edges.get(node).into_iter().flat_map(|e| e.keys()) {
                if let Some(&j) = of.get(target.as_str())
                    && j != i
                {
                    level[i] = level[i].max(level[j] + 1);
                }
            }
        }
    }
    let mut layers = vec![Vec::new(); level.iter().max().map_or(0, |m| m + 1)];
    for (i, component) in components.iter().enumerate() {
        let name =
            if component.len() == 1 { component[0].clone() } else { format!("{{{}}}", component.join(", ")) };
        layers[level[i]].push(name);
    }
    for layer in &mut layers {
        layer.sort();
    }
    layers
}

/// The shortest way from a cycle's first module back to it, through the
/// cycle's modules: `a -> b -> a`.
fn shortest_loop(graph: &Graph, cycle: &[String]) -> Vec<String> {
    let start = &cycle[0];
    let mut came_from: BTreeMap<&String, &String> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(at) = queue.pop_front() {
        for next in graph.edges.get(at).into_iter().flat_map(|e| e.keys()).filter(|n| cycle.contains(n)) {
            if next == start {
                let mut path = vec![start.clone()];
                let mut back = at;
                while back != start {
                    path.push(back.clone());
                    back = came_from[back];
                }
                path.push(start.clone());
                path.reverse();
                return path;
            }
            if !came_from.contains_key(next) {
                came_from.insert(next, at);
                queue.push_back(next);
            }
        }
    }
    vec![start.clone()]
}

/// The failure text: each cycle with the sites of its edges, then the layers.
fn report(graph: &Graph, cycles: &[Vec<String>], prefix: &str) -> String {
    let mut text = format!("{} import circle(s) among the top-level modules of core/src:\n", cycles.len());
    for cycle in cycles {
        text.push_str(&format!(
            "\ncycle {{{}}}, for one: {}\n",
            cycle.join(", "),
            shortest_loop(graph, cycle).join(" -> ")
        ));
        for from in cycle {
            for (to, sites) in graph.edges.get(from).into_iter().flatten() {
                if cycle.contains(to) {
                    text.push_str(&format!("  {from} -> {to}\n"));
                    for site in sites {
                        text.push_str(&format!("    {prefix}{}:{}\n", site.file, site.line));
                    }
                }
            }
        }
    }
    text.push_str("\nlayer order, bottom first (a cycle is one {..} entry):\n");
    text.push_str(&layers_text(graph));
    text
}

fn layers_text(graph: &Graph) -> String {
    layers(graph)
        .iter()
        .enumerate()
        .map(|(i, layer)| format!("  {}. {}\n", i + 1, layer.join(", ")))
        .collect()
}

/// The layers `lib.rs` lists, bottom first: its doc lines
/// ``//! N. `a`, `b`: what they are.``, one a layer.
fn documented_layers(lib_rs: &str) -> Vec<Vec<String>> {
    lib_rs
        .lines()
        .filter_map(|line| line.strip_prefix("//! "))
        .filter_map(|line| {
            let (number, rest) = line.split_once(". ")?;
            number.parse::<usize>().ok()?;
            let names = rest.split(':').next()?;
            Some(names.split(',').map(|n| n.trim().trim_matches('`').to_string()).collect())
        })
        .collect()
}

/// Each module missing from the documented layers or listed twice, and
/// each edge that climbs to a higher layer, with its sites.
fn layer_violations(graph: &Graph, layers: &[Vec<String>], prefix: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let mut layer_of = BTreeMap::new();
    for (i, layer) in layers.iter().enumerate() {
        for name in layer {
            if layer_of.insert(name.clone(), i).is_some() {
                problems.push(format!("`{name}` is listed in two layers"));
            }
            if !graph.nodes.contains(name) {
                problems.push(format!("`{name}` is listed but is no top-level module"));
            }
        }
    }
    for node in &graph.nodes {
        if !layer_of.contains_key(node) {
            problems.push(format!("`{node}` is in no layer: add it to the list in core/src/lib.rs"));
        }
    }
    for (from, targets) in &graph.edges {
        for (to, sites) in targets {
            if let (Some(a), Some(b)) = (layer_of.get(from), layer_of.get(to))
                && b > a
            {
                let at: Vec<String> =
                    sites.iter().map(|s| format!("{prefix}{}:{}", s.file, s.line)).collect();
                problems.push(format!(
                    "{from} (layer {}) -> {to} (layer {}), a layer above: {}",
                    a + 1,
                    b + 1,
                    at.join(", ")
                ));
            }
        }
    }
    problems
}

fn graph_of(files: &BTreeMap<String, String>) -> Graph {
    build_graph(files).unwrap_or_else(|e| panic!("{e}"))
}

fn read_tree(root: &Path) -> BTreeMap<String, String> {
    fn walk(root: &Path, dir: &Path, files: &mut BTreeMap<String, String>) {
        for entry in std::fs::read_dir(dir).expect("read core/src") {
            let path: PathBuf = entry.expect("entry").path();
            if path.is_dir() {
                walk(root, &path, files);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path.strip_prefix(root).expect("under root").to_string_lossy().replace('\\', "/");
                files.insert(rel, std::fs::read_to_string(&path).expect("read .rs"));
            }
        }
    }
    let mut files = BTreeMap::new();
    walk(root, root, &mut files);
    files
}

#[test]
fn core_modules_import_no_circle() {
    let root = plugforge_conformance::repo_dir().join("core/src");
    let graph = graph_of(&read_tree(&root));
    assert!(graph.nodes.len() >= 20, "modules went missing: {:?}", graph.nodes);
    let cycles = cycles(&graph);
    assert!(cycles.is_empty(), "{}", report(&graph, &cycles, "core/src/"));
}

/// The layers listed at the top of `core/src/lib.rs` hold: every module is
/// in one, and no module depends on a layer above its own.
#[test]
fn core_modules_keep_the_layers_lib_rs_lists() {
    let root = plugforge_conformance::repo_dir().join("core/src");
    let files = read_tree(&root);
    let graph = graph_of(&files);
    let layers = documented_layers(&files["lib.rs"]);
    assert!(layers.len() >= 5, "core/src/lib.rs lists no layers: {layers:?}");
    let problems = layer_violations(&graph, &layers, "core/src/");
    assert!(
        problems.is_empty(),
        "the layers core/src/lib.rs lists do not hold:\n  {}\n\nlayer order the graph allows, bottom first:\n{}",
        problems.join("\n  "),
        layers_text(&graph)
    );
}

fn synthetic(files: &[(&str, &str)]) -> BTreeMap<String, String> {
    files.iter().map(|(path, text)| (path.to_string(), text.to_string())).collect()
}

/// The check can fail: a two-module cycle through a `use` and a path in a
/// function body is found, with both sites; test-only code adds no edge.
#[test]
fn a_two_module_cycle_is_found() {
    let files = synthetic(&[
        ("lib.rs", "mod a;\nmod b;\nmod c;\n"),
        ("a.rs", "use crate::b::Thing;\n\npub fn f() {}\n"),
        ("b/mod.rs", "mod inner;\n"),
        ("b/inner.rs", "pub struct Thing;\n\nfn g() {\n    super::super::a::f();\n}\n"),
        ("c.rs", "pub fn h() {}\n#[cfg(test)]\nmod tests {\n    use crate::a::f;\n}\n"),
    ]);
    let graph = graph_of(&files);
    let found = cycles(&graph);
    assert_eq!(found, vec![vec!["a".to_string(), "b".to_string()]]);
    let text = report(&graph, &found, "");
    assert!(text.contains("a -> b\n    a.rs:1\n"), "{text}");
    assert!(text.contains("b -> a\n    b/inner.rs:4\n"), "{text}");
    assert!(text.contains("cycle {a, b}, for one: a -> b -> a\n"), "{text}");
    assert!(text.contains("1. c, {a, b}"), "{text}");
}

/// Every way of naming a module counts; `#[cfg(test)]` items, `mod tests`
/// and test-only module files do not.
#[test]
fn every_form_of_naming_counts_and_tests_do_not() {
    let files = synthetic(&[
        (
            "lib.rs",
            "mod a;\nmod b;\nmod c;\nmod d;\nmod e;\nmod f;\nmod g;\nmod t;\npub use d::{Y as Why};\n",
        ),
        ("a.rs", "use crate::{b, c::X};\n"),
        ("b.rs", "fn g() -> crate::d::Y { todo!() }\n"),
        ("c.rs", "fn g() { let _ = matches!(1, crate::e::Z); }\n"),
        ("d.rs", "use super::f;\n"),
        ("e.rs", "#[cfg(test)]\nuse crate::a;\n#[cfg(all(test, unix))]\nfn g() { crate::a::h() }\n"),
        ("f.rs", "#[cfg(test)]\nmod helpers;\nmod tests { use crate::a; }\n"),
        ("f/helpers.rs", "use crate::a;\n"),
        (
            "g.rs",
            "fn g(_: crate::Why) {}\n#[derive(Deserialize)]\nstruct S(#[serde(with = \"crate::b::w\")] u8);\n",
        ),
        ("t.rs", "#[cfg(any(test, unix))]\nuse crate::a;\n"),
    ]);
    let graph = graph_of(&files);
    let targets = |from: &str| -> Vec<&str> {
        graph.edges.get(from).map(|e| e.keys().map(String::as_str).collect()).unwrap_or_default()
    };
    assert_eq!(targets("a"), ["b", "c"]);
    assert_eq!(targets("b"), ["d"]);
    assert_eq!(targets("c"), ["e"]);
    assert_eq!(targets("d"), ["f"]);
    assert!(targets("e").is_empty());
    assert!(targets("f").is_empty());
    assert_eq!(targets("g"), ["b", "d"], "a root re-export names its module; so does a path in a string");
    assert_eq!(targets("t"), ["a"]);
    assert!(cycles(&graph).is_empty());
}

/// An edge up the documented layers, and a module in none, are reported.
#[test]
fn an_edge_up_the_documented_layers_is_reported() {
    let lib_rs =
        "//! Layers:\n//!\n//! 1. `a`: the bottom.\n//! 2. `b`: above it.\n\nmod a;\nmod b;\nmod c;\n";
    let files = synthetic(&[("lib.rs", lib_rs), ("a.rs", "use crate::b::X;\n"), ("b.rs", ""), ("c.rs", "")]);
    let graph = graph_of(&files);
    let layers = documented_layers(lib_rs);
    assert_eq!(layers, [["a"], ["b"]]);
    let problems = layer_violations(&graph, &layers, "");
    assert_eq!(
        problems,
        [
            "`c` is in no layer: add it to the list in core/src/lib.rs",
            "a (layer 1) -> b (layer 2), a layer above: a.rs:1"
        ]
    );
}

/// A file no `mod` declaration reaches is reported, not skipped.
#[test]
fn an_orphan_file_is_reported() {
    let files = synthetic(&[("lib.rs", "mod a;\n"), ("a.rs", ""), ("stray.rs", "use crate::a;\n")]);
    let error = build_graph(&files).expect_err("stray.rs is reached by nothing");
    assert!(error.contains("stray.rs: no `mod` declaration reaches it"), "{error}");
}

//! The rules pages, `/rules/{variant}`: each built-in variant's rules in our own words, its
//! map at the start, and the decisions where its rule text is silent, in English and German.
//! Open to everyone (a player reads them before joining). The texts are Markdown files kept in
//! `crates/service/rules/`, compiled into the binary.

use axum::extract::Path;
use axum::http::StatusCode;
use axum::response::Response;
use spielleiter_engine::Position;
use spielleiter_render::Scene;

use super::{Text, Viewer};
use crate::error::ApiError;
use crate::pictures::draw;
use crate::variants::variant;

/// The rules texts: the name they are for (a variant, or the first part of the names of a
/// variant's scenarios) with the English and the German text.
const TEXTS: &[(&str, &str, &str)] = &[
    (
        "standard",
        include_str!("../../rules/standard.en.md"),
        include_str!("../../rules/standard.de.md"),
    ),
    (
        "ancmed",
        include_str!("../../rules/ancmed.en.md"),
        include_str!("../../rules/ancmed.de.md"),
    ),
    (
        "colonial",
        include_str!("../../rules/colonial.en.md"),
        include_str!("../../rules/colonial.de.md"),
    ),
    (
        "hegemony",
        include_str!("../../rules/hegemony.en.md"),
        include_str!("../../rules/hegemony.de.md"),
    ),
];

/// The rules text of a built-in variant in the page's language, if it has one (the scenarios of
/// a variant, `hegemony-1701`, share its text).
pub(crate) fn text_of(name: &str, t: &Text) -> Option<&'static str> {
    let family = name.split_once('-').map_or(name, |(f, _)| f);
    TEXTS
        .iter()
        .find(|(n, _, _)| n.eq_ignore_ascii_case(family))
        .map(|&(_, en, de)| if t.lang == "de" { de } else { en })
}

/// Whether a built-in variant has a rules page.
pub(crate) fn has_page(name: &str) -> bool {
    text_of(name, Text::of("en")).is_some()
}

/// A rules page.
#[derive(askama::Template)]
#[template(path = "rules.html")]
struct RulesPage {
    t: &'static Text,
    viewer_name: Option<String>,
    csrf: String,
    flash: Option<String>,
    /// The variant's title in the page's language.
    title: String,
    /// The variant shown.
    current: String,
    /// Every variant with a page: its name and title.
    variants: Vec<(String, String)>,
    /// The map at the start, drawn.
    map_svg: String,
    /// The rules, as HTML from our own Markdown.
    body: String,
}

/// Our own Markdown as HTML (tables as GitHub writes them). The texts are the project's, compiled
/// in; no visitor's text is ever rendered here, and raw HTML in them is shown as text, never
/// passed through.
fn html_of(markdown: &str) -> String {
    use pulldown_cmark::Event;
    let parser = pulldown_cmark::Parser::new_ext(markdown, pulldown_cmark::Options::ENABLE_TABLES).map(|e| match e {
        Event::Html(text) | Event::InlineHtml(text) => Event::Text(text),
        other => other,
    });
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, parser);
    html
}

/// The map of a variant at its start in `lang`, drawn once per process (the pages are open to
/// every visitor, so no request draws it again).
async fn start_map(v: std::sync::Arc<spielleiter_engine::Variant>, lang: spielleiter_engine::report::Lang) -> String {
    type Drawn = std::sync::Mutex<std::collections::HashMap<(String, &'static str), String>>;
    static DRAWN: std::sync::OnceLock<Drawn> = std::sync::OnceLock::new();
    let drawn = DRAWN.get_or_init(Default::default);
    let key = (v.name.clone(), lang.code());
    if let Some(svg) = drawn.lock().ok().and_then(|d| d.get(&key).cloned()) {
        return svg;
    }
    let name = v.name.clone();
    match tokio::task::spawn_blocking(move || draw(&v, &Scene::position(&v, &Position::initial(&v), lang))).await {
        Ok(svg) => {
            if let Ok(mut d) = drawn.lock() {
                d.insert(key, svg.clone());
            }
            svg
        }
        Err(e) => {
            eprintln!("the rules map of {name}: {e}");
            String::new()
        }
    }
}

/// `/rules`: the rules of the standard game (with links to every variant's).
pub(crate) async fn index(viewer: Viewer) -> Response {
    viewer.redirect("/rules/standard")
}

/// `/rules/{variant}`: a variant's rules page.
pub(crate) async fn page(viewer: Viewer, Path(name): Path<String>) -> Response {
    let t = viewer.t;
    let found = variant(&name)
        .ok()
        .and_then(|v| text_of(&v.name, t).map(|text| (v, text)));
    let Some((v, text)) = found else {
        let e = ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            "there is no rules page for this variant",
        )
        .de("Zu dieser Variante gibt es keine Regelseite");
        return viewer.error(&e, "/rules/standard");
    };
    let map_svg = start_map(v.clone(), t.engine_lang()).await;
    let variants = spielleiter_engine::variant::builtin_names()
        .filter(|n| has_page(n))
        .filter_map(|n| variant(n).ok())
        .map(|v| (v.name.clone(), t.variant_title(&v)))
        .collect();
    let page = RulesPage {
        t,
        viewer_name: viewer.account.as_ref().map(|a| a.name.clone()),
        csrf: viewer.csrf.clone(),
        flash: None,
        title: t.variant_title(&v),
        current: v.name.clone(),
        variants,
        map_svg,
        body: html_of(text),
    };
    viewer.page(StatusCode::OK, askama::Template::render(&page))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_playable_variant_has_its_rules_in_both_languages() {
        for name in spielleiter_engine::variant::builtin_names() {
            for lang in ["en", "de"] {
                let text = text_of(name, Text::of(lang)).unwrap_or_else(|| panic!("rules of {name} in {lang}"));
                assert!(
                    text.lines().count() > 50,
                    "{name} {lang}: {} lines",
                    text.lines().count()
                );
            }
        }
        assert_ne!(
            text_of("hegemony-1701", Text::of("en")),
            text_of("hegemony-1701", Text::of("de"))
        );
    }

    #[test]
    fn the_markdown_becomes_html_with_tables() {
        let html = html_of("## Orders\n\n| en | de |\n| --- | --- |\n| `A Par - Bur` | `A Par - Bur` |\n");
        assert!(
            html.contains("<h2>Orders</h2>") && html.contains("<table>") && html.contains("<code>A Par - Bur</code>"),
            "{html}"
        );
    }

    #[test]
    fn raw_html_in_a_text_is_shown_never_passed_through() {
        let html = html_of("A <script>alert(1)</script> and\n\n<div onclick=\"x\">block</div>\n");
        assert!(!html.contains("<script") && !html.contains("<div"), "{html}");
        assert!(html.contains("&lt;script&gt;"), "{html}");
    }
}

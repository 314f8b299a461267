//! The HTTP adapter: one router for the JSON API (`crate::api`) and the web pages
//! (`crate::web`), with what every request goes through (the whole body read first, the same
//! not-found answer).

use axum::Router;
use axum::http::StatusCode;
use axum::routing::get;

use crate::api::AppState;
use crate::error::ApiError;

/// The routes of the API and of the web pages, and the OpenAPI document that describes the API
/// (served at `/api/openapi.json`).
pub fn router(state: AppState) -> Router {
    let (router, document) = crate::api::routes().split_for_parts();
    router
        .route("/api/openapi.json", get(move || async move { axum::Json(document) }))
        .merge(crate::web::routes())
        .fallback(|uri: axum::http::Uri| async move {
            if uri.path().starts_with("/api") {
                axum::response::IntoResponse::into_response(ApiError::not_found("route", "Diesen Pfad gibt es nicht"))
            } else {
                crate::web::not_found_page()
            }
        })
        .layer(axum::middleware::from_fn(read_whole_body))
        .layer(tower_http::compression::CompressionLayer::new())
        .with_state(state)
}

/// The largest request body taken.
const MAX_BODY_BYTES: usize = 1 << 20;

/// Reads every request body in full before its handler runs, also when the handler does not
/// want one: the connection stays usable for the client's next request, and a body over the
/// limit gets a JSON error.
async fn read_whole_body(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Result<axum::response::Response, ApiError> {
    let (parts, body) = request.into_parts();
    let bytes = axum::body::to_bytes(body, MAX_BODY_BYTES).await.map_err(|_| {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "too_large",
            format!("a request body has at most {MAX_BODY_BYTES} bytes"),
        )
        .de(format!("Eine Anfrage hat höchstens {MAX_BODY_BYTES} Bytes"))
    })?;
    let request = axum::extract::Request::from_parts(parts, axum::body::Body::from(bytes));
    Ok(next.run(request).await)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;
    use tower::ServiceExt as _;

    async fn answer(router: Router, body: Vec<u8>) -> (StatusCode, Value) {
        let request = axum::extract::Request::post("/echo")
            .body(axum::body::Body::from(body))
            .expect("a request");
        let response = router.oneshot(request).await.expect("an answer");
        let status = response.status();
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .expect("a body");
        (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
    }

    #[tokio::test]
    async fn bodies_are_read_whole_and_too_large_ones_refused_as_json() {
        let router = || {
            Router::new()
                .route(
                    "/echo",
                    axum::routing::post(|body: axum::body::Bytes| async move { axum::Json(body.len()) }),
                )
                .layer(axum::middleware::from_fn(read_whole_body))
        };
        assert_eq!(
            answer(router(), vec![b'x'; 1000]).await,
            (StatusCode::OK, serde_json::json!(1000))
        );
        let (status, error) = answer(router(), vec![b'x'; MAX_BODY_BYTES + 1]).await;
        assert_eq!(
            (status, error["code"].as_str()),
            (StatusCode::PAYLOAD_TOO_LARGE, Some("too_large"))
        );
    }
}

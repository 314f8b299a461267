//! The end of a game by agreement: draw votes shared by all survivors.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use serde::Deserialize;
use serde_json::{Value, json};
use sqlx::Row;

use super::*;

#[derive(Deserialize)]
pub(crate) struct DrawVote {
    vote: bool,
}

pub(crate) async fn vote_draw(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Json(body): Json<DrawVote>,
) -> ApiResult<Json<Value>> {
    let me = account(&state, &headers).await?;
    let g = game(&state, &id).await?;
    if g.status != "active" {
        return Err(ApiError::conflict("the game is not running"));
    }
    let power = power_of(&state, &id, &me)
        .await?
        .ok_or_else(|| ApiError::forbidden("only the game's players vote"))?;
    let v = variant(&g.variant)?;
    let (_, position) = current_position(&v, &g)?;
    sqlx::query("UPDATE members SET draw_vote = $1 WHERE game_id = $2 AND account_id = $3")
        .bind(i64::from(body.vote))
        .bind(&id)
        .bind(&me)
        .execute(&state.store.pool)
        .await?;
    // A draw needs the votes of every survivor, and all survivors share it (DIAS).
    let survivors: Vec<String> = spielleiter_engine::game::survivors(&v, &position)
        .into_iter()
        .map(|p| v.map.power(p).key.to_ascii_uppercase())
        .collect();
    let rows = sqlx::query("SELECT power FROM members WHERE game_id = $1 AND role = 'player' AND draw_vote = 1")
        .bind(&id)
        .fetch_all(&state.store.pool)
        .await?;
    let yes: Vec<String> = rows.iter().filter_map(|r| r.get::<Option<String>, _>(0)).collect();
    // Powers without a player (civil disorder) cannot vote: the survivors with players decide.
    let played = sqlx::query("SELECT power FROM members WHERE game_id = $1 AND role = 'player'")
        .bind(&id)
        .fetch_all(&state.store.pool)
        .await?;
    let played: Vec<String> = played.iter().filter_map(|r| r.get::<Option<String>, _>(0)).collect();
    let drawn = survivors.iter().filter(|s| played.contains(s)).all(|s| yes.contains(s));
    if drawn {
        let result = json!({"kind": "draw", "powers": survivors});
        sqlx::query("UPDATE games SET status = 'finished', result_json = $1 WHERE id = $2 AND status = 'active'")
            .bind(result.to_string())
            .bind(&id)
            .execute(&state.store.pool)
            .await?;
    }
    Ok(Json(
        json!({"power": power, "vote": body.vote, "drawn": drawn, "survivors": survivors}),
    ))
}

//! The end of a game by agreement: a draw voted by every survivor and shared by all of them
//! (DIAS), or a concession of the game to one power by every other survivor. Survivors in civil
//! disorder have no say.

use axum::Json;
use axum::extract::{Path, State};
use serde::Deserialize;
use sqlx::Row;

use super::*;
use crate::error::refusals::*;
use spielleiter_engine::interchange::GameEnd;

/// A draw vote: yes, or no (which withdraws an earlier yes).
#[derive(Deserialize, utoipa::ToSchema)]
pub(crate) struct DrawVote {
    vote: bool,
}

/// A concession of the game to a power; none withdraws an earlier concession.
#[derive(Deserialize, utoipa::ToSchema)]
pub(crate) struct Concession {
    to: Option<String>,
}

/// What a vote needs: the voter's power, the survivors, and the survivors that decide (those
/// with a player who is not in civil disorder).
struct Electorate {
    power: String,
    survivors: Vec<String>,
    deciders: Vec<String>,
}

async fn electorate(state: &AppState, g: &GameRow, me: &str) -> ApiResult<(Electorate, std::sync::Arc<Variant>)> {
    if g.status != crate::domain::GameStatus::Active {
        return Err(ApiError::conflict("the game is not running").de("Die Partie läuft nicht"));
    }
    let power = power_of(state, &g.id, me).await?.ok_or_else(|| {
        ApiError::forbidden("only the game's players vote").de("Nur die Spieler der Partie stimmen ab")
    })?;
    let v = variant(&g.variant)?;
    let (_, position) = current_position(&v, g)?;
    let survivors: Vec<String> = spielleiter_engine::game::survivors(&v, &position)
        .into_iter()
        .map(|p| v.map.power(p).key.to_ascii_uppercase())
        .collect();
    if !survivors.contains(&power) {
        return Err(ApiError::forbidden("only surviving powers vote").de("Nur überlebende Mächte stimmen ab"));
    }
    let active: Vec<String> = played_powers(&state.store.pool, &g.id)
        .await?
        .into_iter()
        .filter(|(_, cd)| !cd)
        .map(|(p, _)| p)
        .collect();
    let deciders = survivors.iter().filter(|s| active.contains(s)).cloned().collect();
    Ok((
        Electorate {
            power,
            survivors,
            deciders,
        },
        v,
    ))
}

/// Ends the game with `result` and tells every member, in one transaction.
async fn finish(state: &AppState, g: &GameRow, result: &GameEnd, announcement: &Bilingual) -> ApiResult<()> {
    let mut tx = state.store.pool.begin().await?;
    let ended = sqlx::query(
        "UPDATE games SET status = 'finished', result_json = $1, deadline_ms = NULL WHERE id = $2 AND status = 'active'",
    )
    .bind(serde_json::to_string(result).unwrap_or_default())
    .bind(&g.id)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if ended == 1 {
        queue_to_all(&mut tx, g, announcement).await?;
    }
    tx.commit().await?;
    Ok(())
}

#[utoipa::path(
    post,
    path = "/api/games/{id}/draw",
    tag = "endgame",
    summary = "Vote for (or withdraw from) a draw of all survivors.",
    request_body = DrawVote,
    params(("id" = String, Path, description = "The game's id")),
    security(("token" = [])),
    responses((status = 200, description = "Done", body = Object), Unauthorized, Forbidden, NotFound, Conflict, BadJson)
)]
pub(crate) async fn vote_draw(
    State(state): State<AppState>,
    Caller(me): Caller,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<DrawVote>,
) -> ApiResult<Json<DrawVoted>> {
    vote(&state, &me, &id, body.vote).await.map(Json)
}

/// A draw vote recorded: the voter's power, the vote, whether the game ended in a draw, and the
/// survivors.
#[derive(serde::Serialize)]
pub(crate) struct DrawVoted {
    power: String,
    vote: bool,
    /// Whether every deciding survivor had voted yes: the game ended in a draw.
    pub(crate) drawn: bool,
    survivors: Vec<String>,
}

/// A concession recorded: the conceding power, to whom, and whether the game ended so.
#[derive(serde::Serialize)]
pub(crate) struct Conceded {
    power: String,
    /// The power conceded to (none: the concession was withdrawn).
    pub(crate) concede_to: Option<String>,
    /// Whether every other deciding survivor had conceded to the same power: the game ended.
    pub(crate) conceded: bool,
}

/// Records `me`'s draw vote (yes, or no to withdraw a yes) and ends the game in a draw when every
/// deciding survivor has voted yes.
pub(crate) async fn vote(state: &AppState, me: &str, id: &str, yes_vote: bool) -> ApiResult<DrawVoted> {
    let g = game(state, id).await?;
    let (e, _) = electorate(state, &g, me).await?;
    sqlx::query("UPDATE members SET draw_vote = $1 WHERE game_id = $2 AND account_id = $3")
        .bind(i64::from(yes_vote))
        .bind(id)
        .bind(me)
        .execute(&state.store.pool)
        .await?;
    let rows = sqlx::query("SELECT power FROM members WHERE game_id = $1 AND role = 'player' AND draw_vote = 1")
        .bind(id)
        .fetch_all(&state.store.pool)
        .await?;
    let yes: Vec<String> = rows.iter().filter_map(|r| r.get::<Option<String>, _>(0)).collect();
    // Nobody decides for a game whose surviving players are all in civil disorder.
    let drawn = !e.deciders.is_empty() && e.deciders.iter().all(|s| yes.contains(s));
    if drawn {
        let result = GameEnd {
            kind: "draw".to_string(),
            powers: e.survivors.clone(),
        };
        let shared = e.survivors.join(", ");
        let text = Bilingual {
            en: (
                format!("Diplomacy game {} is over", g.name),
                format!("The game {} ends in a draw shared by {shared}.\n", g.name),
            ),
            de: (
                format!("Diplomacy-Partie {} ist beendet", g.name),
                format!("Die Partie {} endet remis zwischen {shared}.\n", g.name),
            ),
        };
        finish(state, &g, &result, &text).await?;
    }
    Ok(DrawVoted {
        power: e.power,
        vote: yes_vote,
        drawn,
        survivors: e.survivors,
    })
}

#[utoipa::path(
    post,
    path = "/api/games/{id}/concede",
    tag = "endgame",
    summary = "Concede the game to a power (or withdraw the concession).",
    request_body = Concession,
    params(("id" = String, Path, description = "The game's id")),
    security(("token" = [])),
    responses((status = 200, description = "Done", body = Object), BadRequest, Unauthorized, Forbidden, NotFound, Conflict, BadJson)
)]
pub(crate) async fn concede(
    State(state): State<AppState>,
    Caller(me): Caller,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<Concession>,
) -> ApiResult<Json<Conceded>> {
    concede_to(&state, &me, &id, body.to.as_deref()).await.map(Json)
}

/// Concedes the game to the power `to` (none: withdraws the concession); the game ends when every
/// other deciding survivor has conceded to the same power.
pub(crate) async fn concede_to(state: &AppState, me: &str, id: &str, to: Option<&str>) -> ApiResult<Conceded> {
    let g = game(state, id).await?;
    let (e, v) = electorate(state, &g, me).await?;
    let to = match to {
        None => None,
        Some(name) => {
            let key = power_key(&v, name)?;
            if key == e.power {
                return Err(
                    ApiError::bad_request("bad_concession", "a power concedes to another power")
                        .de("Eine Macht gibt an eine andere Macht auf"),
                );
            }
            if !e.survivors.contains(&key) {
                return Err(
                    ApiError::bad_request("bad_concession", format!("{key} has been eliminated"))
                        .de(format!("{key} ist ausgeschieden")),
                );
            }
            Some(key)
        }
    };
    sqlx::query("UPDATE members SET concede_to = $1 WHERE game_id = $2 AND account_id = $3")
        .bind(&to)
        .bind(id)
        .bind(me)
        .execute(&state.store.pool)
        .await?;
    let mut conceded = false;
    if let Some(winner) = &to {
        let rows = sqlx::query("SELECT power FROM members WHERE game_id = $1 AND role = 'player' AND concede_to = $2")
            .bind(id)
            .bind(winner)
            .fetch_all(&state.store.pool)
            .await?;
        let yes: Vec<String> = rows.iter().filter_map(|r| r.get::<Option<String>, _>(0)).collect();
        let others: Vec<&String> = e.deciders.iter().filter(|d| *d != winner).collect();
        conceded = !others.is_empty() && others.iter().all(|d| yes.contains(*d));
        if conceded {
            let result = GameEnd {
                kind: "concession".to_string(),
                powers: vec![winner.clone()],
            };
            let text = Bilingual {
                en: (
                    format!("Diplomacy game {} is over", g.name),
                    format!("The other survivors concede the game {} to {winner}.\n", g.name),
                ),
                de: (
                    format!("Diplomacy-Partie {} ist beendet", g.name),
                    format!(
                        "Die anderen Überlebenden geben die Partie {} an {winner} auf.\n",
                        g.name
                    ),
                ),
            };
            finish(state, &g, &result, &text).await?;
        }
    }
    Ok(Conceded {
        power: e.power,
        concede_to: to,
        conceded,
    })
}

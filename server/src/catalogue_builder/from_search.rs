//! « Ajouter au catalogue de D-… » on a result of the Lieux page: the
//! venue goes into the request's standard draft through the same edit as
//! the builder's « Ajouter » (same rules, same audit), in the first tier
//! with room. Asking twice adds once.
use super::{edit, CatalogueBuilderService};
use app::catalogue_builder::{AddedFromSearch, CatalogueBuilder, Edit, Tier, SLOTS_PER_TIER};
use app::errors::AppError;

pub async fn add(
    service: &CatalogueBuilderService,
    user_id: i64,
    request_id: i64,
    member_id: i64,
) -> Result<AddedFromSearch, AppError> {
    let code: String = sqlx::query_scalar("SELECT code FROM members WHERE id = $1")
        .bind(member_id)
        .fetch_optional(&service.db)
        .await
        .map_err(crate::db::app_error)?
        .ok_or(AppError::NotFound)?;
    // The draft, prepared when the request has none (this is a POST).
    let view = service.open(user_id, request_id, false).await?;
    let reference = view.request.reference.clone();
    if view.read_only() {
        return Err(AppError::Conflict(format!(
            "Le catalogue de {reference} a été envoyé : ouvrez-le et créez une nouvelle version pour le modifier."
        )));
    }
    if let Some(tier) = Tier::BOTH
        .into_iter()
        .find(|t| view.tier(*t).iter().any(|p| p.member_id == member_id))
    {
        return Ok(AddedFromSearch {
            added: false,
            message: format!(
                "Déjà au catalogue de {reference} ({}).",
                tier.label().to_lowercase()
            ),
        });
    }
    let tier = if view.recommended.len() < SLOTS_PER_TIER {
        Tier::Recommended
    } else {
        Tier::Compatible
    };
    let edit = Edit::Add { member: code, tier };
    edit::apply(&service.db, user_id, view.catalogue_id, view.version, edit).await?;
    Ok(AddedFromSearch {
        added: true,
        message: format!(
            "Ajouté au catalogue de {reference} ({}).",
            tier.label().to_lowercase()
        ),
    })
}

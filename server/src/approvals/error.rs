//! Why a decision was refused, and what the caller sees.
use app::errors::AppError;

#[derive(Debug, thiserror::Error)]
pub enum ApprovalError {
    /// Unknown id, or an approval of someone else's conversation: the same
    /// answer for both, so ids cannot be probed.
    #[error("Cette carte d'approbation n'existe pas.")]
    NotFound,
    /// Approved, rejected or running already (a second click, a second
    /// server, or an approve racing a reject).
    #[error("Cette action a déjà été traitée.")]
    AlreadyDecided,
    #[error("Cette carte a expiré : demandez à Maxy de reproposer l'action.")]
    Expired,
    /// The hash sent back is not the card's, or the stored arguments no
    /// longer match their hash.
    #[error("Les arguments de cette carte ont été modifiés : elle ne peut pas être approuvée.")]
    Altered,
    /// A rejection without a usable reason.
    #[error("{0}")]
    InvalidReason(String),
    #[error("Outil d'écriture inconnu : {0}.")]
    UnknownTool(String),
    /// The tool call already has a card.
    #[error("Cet appel d'outil a déjà une carte d'approbation.")]
    Duplicate,
    #[error("base de données : {0}")]
    Db(#[from] sqlx::Error),
}

impl From<ApprovalError> for AppError {
    fn from(e: ApprovalError) -> Self {
        match e {
            ApprovalError::NotFound => AppError::NotFound,
            ApprovalError::AlreadyDecided | ApprovalError::Duplicate => {
                AppError::Conflict(e.to_string())
            }
            ApprovalError::Expired
            | ApprovalError::Altered
            | ApprovalError::InvalidReason(_)
            | ApprovalError::UnknownTool(_) => AppError::Invalid(e.to_string()),
            ApprovalError::Db(db) => crate::db::app_error(db),
        }
    }
}

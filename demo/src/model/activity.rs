//! The team's activity: requests, their e-mails, catalogues and picks,
//! availability checks, response signals and training sessions.

use super::{Configuration, Stamp};

/// Where a request looks for venues: postal codes, or a centre and a radius.
#[derive(Debug, Clone, PartialEq)]
pub enum Area {
    PostalCodes(Vec<&'static str>),
    Radius { lat: f64, lng: f64, km: f64 },
}

#[derive(Debug)]
pub struct Request {
    pub id: i64,
    pub reference: String,
    pub pool_id: i64,
    pub source: &'static str,
    pub organizer_name: String,
    pub organizer_email: String,
    pub organizer_phone: Option<String>,
    pub organizer_company: String,
    pub description: String,
    pub complementary_info: Option<String>,
    pub event_type: &'static str,
    pub participants: i32,
    pub budget_eur: Option<i32>,
    pub budget_note: Option<String>,
    pub configurations: Vec<Configuration>,
    /// Free wording of the zone ("Paris 8e", "autour de Versailles").
    pub area_label: String,
    pub area: Area,
    /// Days since the Unix epoch.
    pub event_start_day: i64,
    pub event_end_day: Option<i64>,
    pub date_flexible: bool,
    pub date_notes: Option<&'static str>,
    pub team_memo: Option<String>,
    pub search_hints: Option<&'static str>,
    pub status: &'static str,
    pub assigned_user_id: Option<i64>,
    pub won_member_id: Option<i64>,
    pub closed_reason: Option<&'static str>,
    pub created_at: Stamp,
    pub updated_at: Stamp,
}

#[derive(Debug)]
pub struct RequestEmail {
    pub id: i64,
    pub request_id: i64,
    pub direction: &'static str,
    pub from_address: String,
    pub to_addresses: Vec<String>,
    pub subject: String,
    pub body: String,
    pub message_id: String,
    pub received_at: Stamp,
}

#[derive(Debug)]
pub struct Catalogue {
    pub id: i64,
    pub request_id: i64,
    pub kind: &'static str,
    pub status: &'static str,
    pub created_by: Option<i64>,
    pub sent_at: Option<Stamp>,
    pub created_at: Stamp,
}

#[derive(Debug)]
pub struct CataloguePick {
    pub id: i64,
    pub catalogue_id: i64,
    pub member_id: i64,
    pub tier: &'static str,
    pub position: i32,
    pub explanation: String,
    pub room_id: i64,
    pub added_by: &'static str,
    pub added_by_user_id: Option<i64>,
    pub created_at: Stamp,
}

#[derive(Debug)]
pub struct AvailabilityCheck {
    pub id: i64,
    pub request_id: i64,
    pub member_id: i64,
    pub status: &'static str,
    pub answer: Option<&'static str>,
    pub created_by: Option<i64>,
    pub sent_at: Stamp,
    pub answered_at: Option<Stamp>,
    pub expires_at: Stamp,
}

#[derive(Debug)]
pub struct ResponseSignal {
    pub id: i64,
    pub member_id: i64,
    pub kind: &'static str,
    pub response_hours: Option<f64>,
    pub request_id: Option<i64>,
    pub availability_check_id: Option<i64>,
    pub created_at: Stamp,
}

/// `training_sessions.directives`: `{"trigger", "prefer", "avoid"}`.
#[derive(Debug, Clone, PartialEq)]
pub struct Directives {
    pub trigger: &'static str,
    pub prefer: Vec<&'static str>,
    pub avoid: Vec<&'static str>,
}

#[derive(Debug)]
pub struct TrainingSession {
    pub id: i64,
    pub request_id: Option<i64>,
    pub member_id: Option<i64>,
    pub catalogue_id: Option<i64>,
    pub user_id: Option<i64>,
    pub source: &'static str,
    pub verdict: &'static str,
    pub reason: String,
    pub category: &'static str,
    pub event_type: Option<&'static str>,
    pub directives: Option<Directives>,
    pub created_at: Stamp,
}

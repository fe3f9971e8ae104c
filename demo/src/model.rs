//! The generated dataset as plain structs, one per table and in the tables'
//! column order, so the loader is a mechanical mapping and tests can check
//! invariants without a database.

use super::features::Feature;
use super::pools::Kind;

/// A point in time, in seconds since the Unix epoch (UTC). Kept as an
/// integer so the dataset holds no wall-clock value and digests stay stable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Stamp(pub i64);

/// 2026-01-05T00:00:00Z, the demo's "today": every timestamp derives from it.
pub const BASE: Stamp = Stamp(1_767_571_200);

impl Stamp {
    pub fn plus_hours(self, hours: i64) -> Stamp {
        Stamp(self.0 + hours * 3600)
    }
    pub fn plus_minutes(self, minutes: i64) -> Stamp {
        Stamp(self.0 + minutes * 60)
    }
    pub fn plus_days(self, days: i64) -> Stamp {
        Stamp(self.0 + days * 86_400)
    }
    /// Days since the Unix epoch (the date part, UTC).
    pub fn day(self) -> i64 {
        self.0.div_euclid(86_400)
    }
}

/// The room layouts of seed 001 ("configurations Kactus"), the one list the
/// search and the page use too.
pub use app::room_configurations::Configuration;

#[derive(Debug, Default)]
pub struct Dataset {
    pub pools: Vec<Pool>,
    pub tags: Vec<Tag>,
    pub attribute_types: Vec<AttributeType>,
    pub members: Vec<Member>,
    pub rooms: Vec<Room>,
    pub capacities: Vec<Capacity>,
    pub member_tags: Vec<MemberTag>,
    pub member_attributes: Vec<MemberAttribute>,
    pub knowledge: Vec<KnowledgeEntry>,
    pub users: Vec<User>,
    pub favorites: Vec<Favorite>,
    pub requests: Vec<Request>,
    pub request_emails: Vec<RequestEmail>,
    pub catalogues: Vec<Catalogue>,
    pub picks: Vec<CataloguePick>,
    pub availability_checks: Vec<AvailabilityCheck>,
    pub signals: Vec<ResponseSignal>,
    pub training: Vec<TrainingSession>,
}

#[derive(Debug)]
pub struct Pool {
    pub id: i64,
    pub slug: &'static str,
    pub name: &'static str,
    pub description: &'static str,
}

#[derive(Debug)]
pub struct Member {
    pub id: i64,
    pub code: String,
    pub name: String,
    pub pool_id: i64,
    /// Not a column: what the venue is (tests and later stages use it).
    pub kind: Kind,
    /// Not a column: concepts the text conveys without their keyword
    /// (semantic-search test cases).
    pub implicit: Vec<Feature>,
    pub status: &'static str,
    pub address: String,
    pub postal_code: &'static str,
    pub city: &'static str,
    pub lat: f64,
    pub lng: f64,
    pub description: String,
    pub contact_email: String,
    pub contact_phone: String,
    pub website: String,
    pub capacity_max: i32,
    pub price_per_person_min_eur: Option<i32>,
    pub price_per_person_max_eur: Option<i32>,
    pub venue_hire_from_eur: Option<i32>,
    pub price_notes: Option<String>,
    pub created_at: Stamp,
    pub updated_at: Stamp,
}

#[derive(Debug)]
pub struct Room {
    pub id: i64,
    pub member_id: i64,
    pub name: String,
    pub description: String,
    pub area_m2: i32,
    pub position: i32,
}

#[derive(Debug)]
pub struct Capacity {
    pub room_id: i64,
    pub member_id: i64,
    pub configuration: Configuration,
    pub max_capacity: i32,
}

#[derive(Debug)]
pub struct Tag {
    pub id: i64,
    pub name: &'static str,
}

#[derive(Debug)]
pub struct MemberTag {
    pub member_id: i64,
    pub tag_id: i64,
}

#[derive(Debug)]
pub struct AttributeType {
    pub id: i64,
    pub key: &'static str,
    pub label: &'static str,
    pub value_type: &'static str,
}

#[derive(Debug, Clone, PartialEq)]
pub enum AttrValue {
    Bool(bool),
    Int(i64),
    Text(&'static str),
}

#[derive(Debug)]
pub struct MemberAttribute {
    pub member_id: i64,
    pub attribute_type_id: i64,
    pub value: AttrValue,
}

#[derive(Debug)]
pub struct KnowledgeEntry {
    pub id: i64,
    pub member_id: i64,
    pub title: &'static str,
    pub content: String,
    pub source: &'static str,
    pub created_by: Option<i64>,
    pub created_at: Stamp,
}

#[derive(Debug)]
pub struct User {
    pub id: i64,
    pub email: &'static str,
    pub display_name: &'static str,
    pub role: &'static str,
    pub profiles: Vec<&'static str>,
    pub created_at: Stamp,
}

#[derive(Debug)]
pub struct Favorite {
    pub user_id: i64,
    pub member_id: i64,
    pub note: Option<&'static str>,
    pub created_at: Stamp,
}

mod activity;
pub use activity::*;

"""Domain vocabularies for the synthetic ER fixtures (tools only, never used by cvparse).

Each domain is written compactly as text so it reads like a schema sketch:
  entities:  "[@]Name: pk, attr, attr"   (first attribute = primary key, @ = person-like)
  rels:      "A verb B"                   (binary relationship between two entities)
  nary:      "A, B, C: verb"              (relationship among three or more entities)
  weak:      "Weak < Owner verb: partial_key, attr"  (weak entity and identifying rel.)
  recursive: "Entity verb"
  isa:       "Super > Sub: attr, attr; Sub: attr"
  relattrs:  relationship-attribute names that fit the domain
``parse_domain`` turns one such block into a ``Domain`` dataclass.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class EntitySpec:
    """An entity template: name, attribute names (first is the key), person-like flag."""

    name: str
    attributes: tuple[str, ...]
    person: bool = False


@dataclass(frozen=True)
class WeakSpec:
    """A weak entity template with its owner and identifying relationship verb."""

    name: str
    owner: str
    verb: str
    attributes: tuple[str, ...]


@dataclass(frozen=True)
class IsaSpec:
    """A specialisation template: superclass and subclasses with their own attributes."""

    superclass: str
    subclasses: tuple[tuple[str, tuple[str, ...]], ...]


@dataclass
class Domain:
    """One application domain's vocabulary."""

    name: str
    entities: dict[str, EntitySpec] = field(default_factory=dict)
    rels: list[tuple[str, str, str]] = field(default_factory=list)
    nary: list[tuple[tuple[str, ...], str]] = field(default_factory=list)
    weak: list[WeakSpec] = field(default_factory=list)
    recursive: list[tuple[str, str]] = field(default_factory=list)
    isa: list[IsaSpec] = field(default_factory=list)
    relattrs: list[str] = field(default_factory=list)


MULTIVALUED = ["phone_number", "email", "skill", "language", "tag", "alias", "certification",
               "specialty", "keyword", "hobby", "degree", "award", "feature", "nickname",
               "color", "category"]
PERSON_MULTIVALUED = ["phone_number", "email", "skill", "language", "certification",
                      "hobby", "degree", "nickname"]
DERIVED = ["total_amount", "num_items", "duration", "average_rating", "item_count",
           "total_cost", "days_open", "usage_count", "profit_margin", "num_members"]
PERSON_DERIVED = ["age", "membership_years", "num_visits", "account_age", "total_spent"]
COMPOSITE = {
    "address": ["street", "city", "state", "zip_code"],
    "location": ["building", "floor", "room"],
    "period": ["start_date", "end_date"],
    "dimensions": ["length", "width", "height"],
    "coordinates": ["latitude", "longitude"],
    "schedule": ["day", "start_time", "end_time"],
}
PERSON_COMPOSITE = {
    "name": ["first_name", "last_name"],
    "full_name": ["first_name", "middle_name", "last_name"],
    "address": ["street", "city", "zip_code"],
    "home_address": ["street", "city", "state", "postal_code"],
    "contact_info": ["phone", "email"],
}
GENERIC_VERBS = ["has", "manages", "owns", "uses", "contains", "records", "handles",
                 "belongs_to", "assigned_to", "requests", "provides", "reviews"]
GENERIC_RELATTRS = ["since", "date", "quantity", "role", "status", "notes", "hours",
                    "start_date", "amount"]

_RAW = {
"university": """
entities:
@Student: student_id, name, email, gpa, major, enrollment_year
@Instructor: instructor_id, name, office, rank, salary
Course: course_id, title, credits, level
Department: dept_code, dept_name, building, budget
Section: section_id, term, capacity, room_no
Classroom: room_id, building, capacity, has_projector
Semester: semester_id, season, year
Program: program_code, program_name, degree_type
@Advisor: advisor_id, name, email
Scholarship: scholarship_id, title, amount, sponsor
Club: club_id, club_name, founded
Exam: exam_id, exam_date, duration_min, weight
Textbook: isbn, title, edition, publisher
Lab: lab_id, lab_name, room_no
ResearchGroup: group_id, group_name, focus_area
Grant: grant_no, agency, amount, start_date
Thesis: thesis_id, title, submitted_on, grade
Campus: campus_id, campus_name, city
Library: library_id, library_name, open_hours
Dormitory: dorm_id, dorm_name, rooms
@TeachingAssistant: ta_id, name, hours_per_week
Publication: doi, title, venue, pub_year
rels:
Student enrolls_in Course
Instructor teaches Section
Course offered_by Department
Section held_in Classroom
Student majors_in Program
Advisor advises Student
Student receives Scholarship
Student joins Club
Course has_exam Exam
Course uses Textbook
Department runs Lab
Instructor leads ResearchGroup
ResearchGroup funded_by Grant
Student writes Thesis
Department located_at Campus
Student lives_in Dormitory
TeachingAssistant assists Section
Instructor authors Publication
Section scheduled_in Semester
Program administered_by Department
Instructor works_in Department
nary:
Instructor, Course, Semester: teaches
Student, Section, Exam: takes
Student, Thesis, Instructor: supervises
weak:
Section < Course has_section: section_no, term, capacity
Assignment < Course includes: assignment_no, due_date, max_points
Attempt < Exam has_attempt: attempt_no, score, taken_on
recursive:
Course prerequisite_of
Student mentors
isa:
Student > Undergraduate: year_level, minor; Graduate: thesis_topic, funding_source
Instructor > Professor: tenure_year; Lecturer: contract_end; AdjunctFaculty: hourly_rate
relattrs: grade, since, hours, role, semester, start_date
""",
"hospital": """
entities:
@Patient: patient_id, name, birth_date, blood_type, insurance_no
@Doctor: doctor_id, name, specialty, license_no
@Nurse: nurse_id, name, shift, grade
Ward: ward_id, ward_name, floor, capacity
Room: room_no, room_type, beds
Department: dept_id, dept_name, phone_ext
Appointment: appointment_id, appt_date, appt_time, reason
Medication: drug_code, drug_name, dosage_form, manufacturer
Prescription: rx_id, issued_on, refills
Treatment: treatment_id, description, cost
Test: test_code, test_name, normal_range
Insurer: insurer_id, company_name, plan_type
Bill: bill_id, issued_date, amount_due
Surgery: surgery_id, surgery_date, operating_room
Equipment: equipment_id, model, serial_no
Pharmacy: pharmacy_id, pharmacy_name, opening_hours
Diagnosis: icd_code, diagnosis_name, severity
Admission: admission_id, admit_date, discharge_date
@Surgeon: surgeon_id, name, board_certified
Supplier: supplier_id, supplier_name, contact_email
Ambulance: vehicle_no, capacity, base_station
Clinic: clinic_id, clinic_name, opening_hours
rels:
Doctor treats Patient
Nurse assigned_to Ward
Ward contains Room
Doctor works_in Department
Patient books Appointment
Doctor attends Appointment
Prescription lists Medication
Patient receives Treatment
Patient undergoes Test
Patient insured_by Insurer
Patient pays Bill
Surgeon performs Surgery
Department owns Equipment
Pharmacy dispenses Medication
Doctor makes Diagnosis
Patient has Admission
Admission placed_in Room
Supplier supplies Equipment
Ambulance transports Patient
Clinic employs Doctor
nary:
Doctor, Patient, Medication: prescribes
Surgeon, Patient, Room: operates
Nurse, Patient, Ward: cares_for
Doctor, Patient, Test: orders
weak:
Dependent < Patient has_dependent: dependent_name, relation, birth_date
Visit < Patient logs: visit_no, visit_date, notes
Dose < Prescription consists_of: dose_no, amount, taken_at
recursive:
Doctor supervises
Patient refers
isa:
Doctor > Surgeon: operating_license; Physician: clinic_hours; Resident: residency_year
Patient > Inpatient: bed_no, admit_date; Outpatient: follow_up_date
relattrs: date, dosage, duration, notes, frequency, cost
""",
"library": """
entities:
Book: isbn, title, publication_year, language, pages
@Author: author_id, name, nationality, birth_year
@Member: member_id, name, email, join_date
Loan: loan_id, loan_date, due_date, return_date
Publisher: publisher_id, publisher_name, city
Branch: branch_id, branch_name, address, phone
Copy: copy_id, condition, shelf_code
@Librarian: staff_id, name, hire_date
Genre: genre_id, genre_name
Reservation: reservation_id, reserved_on, status
Fine: fine_id, amount, paid
Event: event_id, title, event_date
Shelf: shelf_code, floor, section
Magazine: issn, title, frequency
DigitalResource: resource_id, title, format, url
Supplier: supplier_id, supplier_name, contact
Card: card_no, issue_date, expiry_date
ReadingRoom: room_id, seats, floor
rels:
Author writes Book
Member borrows Copy
Publisher publishes Book
Branch holds Copy
Librarian works_at Branch
Book belongs_to Genre
Member makes Reservation
Loan incurs Fine
Branch hosts Event
Copy stored_on Shelf
Publisher prints Magazine
Member accesses DigitalResource
Supplier delivers Book
Member holds Card
Branch has ReadingRoom
Member registers Loan
nary:
Member, Copy, Librarian: checks_out
Author, Book, Publisher: contracts
Member, Event, Branch: attends
weak:
Copy < Book has_copy: copy_no, condition, acquired_on
Chapter < Book divided_into: chapter_no, title, page_start
Renewal < Loan extended_by: renewal_no, new_due_date
recursive:
Book sequel_of
Member refers
isa:
Member > StudentMember: school, grade_level; SeniorMember: discount_rate; StaffMember: department
Book > EBook: file_size, format; PrintBook: binding, weight
relattrs: since, loan_date, role, royalty, date
""",
"ecommerce": """
entities:
@Customer: customer_id, name, email, registered_on
Order: order_id, order_date, status, total
Product: product_id, product_name, price, sku
Category: category_id, category_name, description
Supplier: supplier_id, company_name, country
Warehouse: warehouse_id, location, capacity
Shipment: shipment_id, shipped_date, carrier, tracking_no
Payment: payment_id, pay_date, amount, method
Review: review_id, rating, comment, posted_on
Cart: cart_id, created_at
Coupon: coupon_code, discount, valid_until
Invoice: invoice_no, issue_date, amount
Seller: seller_id, store_name, rating
Wishlist: wishlist_id, title, created_at
Brand: brand_id, brand_name, origin_country
@Courier: courier_id, name, vehicle_type
ReturnRequest: return_id, request_date, reason
Promotion: promo_id, promo_name, start_date, end_date
Subscription: subscription_id, plan, renewal_date
Store: store_id, store_name, region
Account: account_id, username, password_hash
@SupportAgent: agent_id, name, team
Ticket: ticket_id, subject, opened_at, priority
rels:
Customer places Order
Order includes Product
Product belongs_to Category
Supplier supplies Product
Warehouse stocks Product
Order shipped_via Shipment
Order paid_by Payment
Customer writes Review
Customer owns Cart
Order applies Coupon
Order billed_in Invoice
Seller lists Product
Customer keeps Wishlist
Brand makes Product
Courier delivers Shipment
Customer files ReturnRequest
Promotion covers Product
Customer holds Subscription
Store sells Product
Customer has Account
SupportAgent handles Ticket
Customer opens Ticket
nary:
Supplier, Product, Warehouse: delivers
Customer, Product, Seller: purchases
Courier, Shipment, Warehouse: picks_up
weak:
OrderLine < Order contains: line_no, quantity, unit_price
Address < Customer ships_to: address_label, street, city
Installment < Payment split_into: installment_no, due_date, amount
recursive:
Category subcategory_of
Product bundled_with
isa:
Product > DigitalProduct: download_url, file_size; PhysicalProduct: weight, dimensions
Payment > CardPayment: card_type, last_four; WalletPayment: provider; BankTransfer: iban
Customer > PremiumCustomer: tier, points; GuestCustomer: session_id
relattrs: quantity, unit_price, discount, date, rating
""",
"airline": """
entities:
Flight: flight_no, departure_time, arrival_time, status
Airport: airport_code, airport_name, city, country
Aircraft: aircraft_id, model, capacity, range_km
@Passenger: passenger_id, name, passport_no, nationality
Booking: booking_ref, booking_date, fare_class
Ticket: ticket_no, seat_no, price
@Pilot: pilot_id, name, license_no, flight_hours
@CrewMember: crew_id, name, role
Airline: airline_code, airline_name, country
Route: route_id, distance_km, duration
Gate: gate_id, terminal, gate_no
Baggage: tag_no, weight, pieces
LoyaltyAccount: loyalty_no, tier, miles
MaintenanceRecord: record_id, check_date, check_type
Hangar: hangar_id, location, size
Lounge: lounge_id, lounge_name, terminal
Fare: fare_code, amount, currency
Runway: runway_id, length_m, surface
Manufacturer: manufacturer_id, manufacturer_name, country
Meal: meal_code, meal_type, calories
Seat: seat_id, cabin, row_no
rels:
Flight departs_from Airport
Flight arrives_at Airport
Aircraft assigned_to Flight
Passenger makes Booking
Booking issues Ticket
Pilot flies Flight
CrewMember staffs Flight
Airline operates Flight
Route served_by Flight
Flight boards_at Gate
Passenger checks Baggage
Passenger holds LoyaltyAccount
Aircraft undergoes MaintenanceRecord
Hangar houses Aircraft
Airport has Lounge
Booking priced_at Fare
Airport owns Runway
Manufacturer builds Aircraft
Flight serves Meal
Aircraft contains Seat
nary:
Pilot, Aircraft, Flight: commands
Passenger, Flight, Seat: occupies
Airline, Airport, Gate: leases
weak:
Leg < Flight consists_of: leg_no, origin, destination
Seat < Aircraft has_seat: seat_no, cabin_class
Segment < Booking split_into: segment_no, fare_basis
recursive:
Airport connects_to
Pilot trains
isa:
CrewMember > FlightAttendant: languages_spoken; Engineer: certification_level
Aircraft > CargoAircraft: max_payload; PassengerAircraft: seat_count
relattrs: date, seat, fare, role, hours
""",
"bank": """
entities:
@Customer: customer_id, name, ssn, birth_date
Account: account_no, balance, opened_on, currency
Branch: branch_id, branch_name, city, assets
Loan: loan_no, amount, interest_rate, term_months
Card: card_no, expiry_date, card_type
Transaction: transaction_id, tx_date, amount, tx_type
@Employee: employee_id, name, position, salary
ATM: atm_id, location, cash_limit
Deposit: deposit_id, amount, deposited_on
Statement: statement_id, period_start, period_end
Beneficiary: beneficiary_id, bank_name, iban
Collateral: collateral_id, description, value
CreditScore: score_id, score, assessed_on
Investment: investment_id, instrument, amount
Insurance: policy_no, premium, coverage
Merchant: merchant_id, merchant_name, category
Region: region_code, region_name
OnlineProfile: profile_id, username, last_login
Cheque: cheque_no, issue_date, amount
Vault: vault_id, vault_location
rels:
Customer holds Account
Branch maintains Account
Customer borrows Loan
Account linked_to Card
Account records Transaction
Employee works_at Branch
Branch operates ATM
Account receives Deposit
Account generates Statement
Customer adds Beneficiary
Loan secured_by Collateral
Customer rated_by CreditScore
Customer makes Investment
Customer buys Insurance
Card pays Merchant
Branch located_in Region
Customer uses OnlineProfile
Account issues Cheque
Branch keeps Vault
nary:
Customer, Account, Branch: depositor
Employee, Customer, Loan: approves
Card, Merchant, Transaction: charges
weak:
Payment < Loan repaid_by: payment_no, pay_date, amount
Transaction < Account logs: tx_no, tx_date, amount
Withdrawal < ATM dispenses: withdrawal_no, amount, at_time
recursive:
Employee supervises
Customer guarantees
isa:
Account > SavingsAccount: interest_rate; CheckingAccount: overdraft_limit; FixedDeposit: maturity_date
Employee > Teller: window_no; LoanOfficer: approval_limit; BranchManager: bonus
relattrs: since, access_date, amount, role, limit
""",
"hotel": """
entities:
Hotel: hotel_id, hotel_name, stars, city
Room: room_no, room_type, rate, floor
@Guest: guest_id, name, email, nationality
Reservation: reservation_id, check_in, check_out, status
@Staff: staff_id, name, job_title, hire_date
Service: service_id, service_name, price
Invoice: invoice_id, issued_on, amount
Restaurant: restaurant_id, restaurant_name, cuisine
Event: event_id, event_name, event_date
Amenity: amenity_id, amenity_name
Housekeeping: task_id, task_date, status
Package: package_id, package_name, price
Review: review_id, score, comment
Chain: chain_id, chain_name, headquarters
ParkingSpot: spot_no, level, spot_type
rels:
Hotel has Room
Guest makes Reservation
Reservation books Room
Staff employed_by Hotel
Guest uses Service
Reservation billed_by Invoice
Hotel runs Restaurant
Hotel hosts Event
Room offers Amenity
Staff performs Housekeeping
Reservation includes Package
Guest posts Review
Chain owns Hotel
Guest rents ParkingSpot
nary:
Guest, Room, Reservation: stays
Staff, Room, Housekeeping: cleans
Guest, Event, Hotel: registers
weak:
Stay < Reservation records: night_no, rate_applied
RoomKey < Room issues: key_no, issued_at
recursive:
Staff reports_to
Hotel partners_with
isa:
Staff > Receptionist: desk_no; Housekeeper: assigned_floor; Chef: cuisine_specialty
Room > Suite: num_rooms; StandardRoom: bed_type
relattrs: date, nights, price, role, rating
""",
"sports": """
entities:
Team: team_id, team_name, founded, city
@Player: player_id, name, position, jersey_no
@Coach: coach_id, name, experience_years
Match: match_id, match_date, score
Stadium: stadium_id, stadium_name, capacity
League: league_id, league_name, country
Season: season_id, start_year, end_year
@Referee: referee_id, name, grade
Sponsor: sponsor_id, sponsor_name, industry
Contract: contract_id, start_date, end_date, wage
Injury: injury_id, injury_type, injury_date
TicketSale: sale_id, sale_date, price
Tournament: tournament_id, tournament_name, prize_pool
@Agent: agent_id, name, agency
TrainingSession: session_id, session_date, focus
rels:
Player plays_for Team
Coach coaches Team
Team plays Match
Match held_at Stadium
Team competes_in League
League runs Season
Referee officiates Match
Sponsor sponsors Team
Player signs Contract
Player suffers Injury
Match sells TicketSale
Team enters Tournament
Agent represents Player
Coach runs TrainingSession
nary:
Team, Player, Season: rosters
Referee, Match, Stadium: assigned
Team, Sponsor, Tournament: funds
weak:
Goal < Match records: goal_no, minute, scorer
Lineup < Match has_lineup: lineup_no, formation
recursive:
Team rivals
Player mentors
isa:
Player > Goalkeeper: saves; Forward: goals_scored; Defender: tackles
Match > LeagueMatch: round_no; Friendly: charity
relattrs: since, minutes, goals, role, fee
""",
"manufacturing": """
entities:
Plant: plant_id, plant_name, location
ProductionLine: line_id, line_name, capacity
Machine: machine_id, model, install_date
Part: part_no, part_name, unit_cost
Product: product_code, product_name, list_price
Supplier: supplier_id, supplier_name, rating
@Worker: worker_id, name, shift, skill_level
WorkOrder: work_order_id, start_date, due_date, status
QualityCheck: check_id, check_date, result
Warehouse: warehouse_id, warehouse_name, capacity
Batch: batch_no, produced_on, quantity
PurchaseOrder: po_no, order_date, total
MaintenanceTask: task_id, task_date, task_type
@Engineer: engineer_id, name, discipline
Material: material_code, material_name, unit
Customer: customer_id, company_name, country
rels:
Plant contains ProductionLine
ProductionLine uses Machine
Product made_of Part
Supplier provides Part
Worker operates Machine
WorkOrder produces Product
Batch passes QualityCheck
Warehouse stores Batch
Supplier receives PurchaseOrder
Machine needs MaintenanceTask
Engineer designs Product
Part made_from Material
Customer orders Product
Worker assigned WorkOrder
nary:
Supplier, Part, Plant: ships
Worker, Machine, WorkOrder: executes
Engineer, Product, Material: specifies
weak:
Operation < WorkOrder consists_of: step_no, duration_min
Measurement < QualityCheck records: measurement_no, value
recursive:
Part component_of
Worker trains
isa:
Machine > CNCMachine: axes; Robot: payload_kg; Press: tonnage
Worker > Operator: certification; Supervisor: team_size
relattrs: quantity, date, hours, cost, role
""",
"streaming": """
entities:
Movie: movie_id, title, release_year, runtime
Series: series_id, title, seasons_count
@Actor: actor_id, name, birth_date
@Director: director_id, name, nationality
@Subscriber: subscriber_id, name, email, join_date
Plan: plan_id, plan_name, monthly_fee
Genre: genre_id, genre_name
Studio: studio_id, studio_name, country
Playlist: playlist_id, playlist_name, created_on
Device: device_id, device_type, os
Rating: rating_id, stars, rated_on
Award: award_id, award_name, year
Subtitle: subtitle_id, language, format
Payment: payment_id, paid_on, amount
Profile: profile_id, display_name, maturity_level
rels:
Actor acts_in Movie
Director directs Movie
Subscriber chooses Plan
Movie belongs_to Genre
Studio produces Movie
Subscriber creates Playlist
Subscriber registers Device
Subscriber gives Rating
Movie wins Award
Movie offers Subtitle
Subscriber makes Payment
Subscriber has Profile
Studio produces Series
Playlist contains Movie
nary:
Actor, Movie, Director: casts
Subscriber, Movie, Device: streams
Studio, Series, Actor: contracts
weak:
Episode < Series has_episode: episode_no, title, air_date
Season < Series divided_into: season_no, year
recursive:
Movie remake_of
Actor collaborates
isa:
Subscriber > FamilySubscriber: max_profiles; StudentSubscriber: university; TrialSubscriber: trial_end
Movie > Documentary: topic; AnimatedFilm: animation_studio
relattrs: role, watched_on, progress, salary, date
""",
}


def _split_attrs(text: str) -> tuple[str, ...]:
    return tuple(a.strip() for a in text.split(",") if a.strip())


def parse_domain(name: str, text: str) -> Domain:
    """Parse one domain block (format in the module docstring)."""
    dom = Domain(name=name)
    section = ""
    for raw in text.strip().splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.endswith(":") and " " not in line:
            section = line[:-1]
            continue
        if line.startswith("relattrs:"):
            dom.relattrs = list(_split_attrs(line.split(":", 1)[1]))
            continue
        if section == "entities":
            head, attrs = line.split(":", 1)
            person = head.startswith("@")
            ename = head.lstrip("@").strip()
            dom.entities[ename] = EntitySpec(ename, _split_attrs(attrs), person)
        elif section == "rels":
            a, verb, b = line.split()
            dom.rels.append((a, verb, b))
        elif section == "nary":
            ents, verb = line.split(":")
            dom.nary.append((_split_attrs(ents), verb.strip()))
        elif section == "weak":
            head, attrs = line.split(":", 1)
            weak, rest = head.split("<")
            owner, verb = rest.split()
            dom.weak.append(WeakSpec(weak.strip(), owner, verb, _split_attrs(attrs)))
        elif section == "recursive":
            ent, verb = line.split()
            dom.recursive.append((ent, verb))
        elif section == "isa":
            sup, subs = line.split(">")
            parts = []
            for sub in subs.split(";"):
                sname, sattrs = sub.split(":")
                parts.append((sname.strip(), _split_attrs(sattrs)))
            dom.isa.append(IsaSpec(sup.strip(), tuple(parts)))
    return dom


def load_domains() -> dict[str, Domain]:
    """All domains by name, parsed from the text blocks above."""
    return {name: parse_domain(name, text) for name, text in _RAW.items()}


if __name__ == "__main__":
    for d in load_domains().values():
        missing = {e for r in d.rels for e in (r[0], r[2])} - set(d.entities)
        missing |= {e for ents, _ in d.nary for e in ents} - set(d.entities)
        missing |= {w.owner for w in d.weak} - set(d.entities)
        missing |= {e for e, _ in d.recursive} - set(d.entities)
        missing |= {i.superclass for i in d.isa} - set(d.entities)
        print(f"{d.name:14s} ents={len(d.entities):2d} rels={len(d.rels):2d} nary={len(d.nary)} "
              f"weak={len(d.weak)} rec={len(d.recursive)} isa={len(d.isa)} missing={sorted(missing)}")

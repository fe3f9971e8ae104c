//! What the offline mode can do, with sentences to try.

pub fn text() -> String {
    "Je fonctionne en mode hors-ligne (sans modèle de langage) : je comprends quelques \
     demandes courantes.\n\
     - Qualifier une demande et proposer un catalogue : « Qualifie cette demande », \
     « Propose un catalogue pour la demande #42 »\n\
     - Chercher des lieux : « Trouve un rooftop pour 80 personnes dans le 8e »\n\
     - Voir un lieu : « #102 », « Fiche complète de #102 »\n\
     - Compter des lieux : « Combien de lieux dans le 11e pour 50 personnes en cocktail ? »\n\
     - Lire les e-mails d'une demande : « Montre les e-mails de la demande »\n\
     - Relire l'entraînement : « Qu'a-t-on appris sur les soirées ? »"
        .to_string()
}

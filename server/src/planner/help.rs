//! What the offline mode can do, with sentences to try.

pub fn text() -> String {
    "Je fonctionne en mode hors-ligne (sans modèle de langage) : je comprends quelques \
     demandes courantes.\n\
     - Qualifier une demande et proposer un catalogue : « Qualifie cette demande », \
     « Propose un catalogue pour la demande #42 »\n\
     - Chercher des lieux : « Trouve un rooftop pour 80 personnes dans le 8e »\n\
     - Voir un lieu : « #102 », « Fiche complète de #102 »\n\
     - Compter des lieux : « Combien de lieux dans le 11e pour 50 personnes en cocktail ? »\n\
     - Compter ou lister les demandes : « Combien de demandes en qualification ? », \
     « Mes demandes de ce mois-ci »\n\
     - Une demande : « Participants et budget de la demande D-2025-00043 ? », « Montre le \
     catalogue de la demande »\n\
     - Écrire, après votre accord sur une carte : « Ajoute au mémo de la demande : … », \
     « Passe la demande en qualification », « Rappelle-moi de relancer le traiteur lundi », \
     « Retiens que … », « Vérifie la dispo de #233 », « Ajoute #233 au catalogue »\n\
     - Lire les e-mails d'une demande : « Montre les e-mails de la demande »\n\
     - Relire l'entraînement : « Qu'a-t-on appris sur les soirées ? »"
        .to_string()
}
